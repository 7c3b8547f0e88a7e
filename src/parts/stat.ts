// STAT in a Shader Model 4 or 5 container (containers.md, "Reflection and statistics"): an array
// of 32-bit counters, 29 words for 4.x targets and 37 for 5.0. Each word is named by the
// D3D11_SHADER_DESC field (or ID3D11ShaderReflection method) whose value it equals over the
// oracle's containers; word 20 is the movc count, 28 the sample-frequency flag, 29..33 the
// geometry-instance and tessellation words. (In a Shader Model 6 container STAT is bitcode.)

import { ByteReader } from '../binary/reader.js';

/** The words, in order. Names are the D3D11_SHADER_DESC fields they equal. */
export const STAT_WORDS = [
  'InstructionCount',
  'TempRegisterCount',
  'DefCount',
  'DclCount',
  'FloatInstructionCount',
  'IntInstructionCount',
  'UintInstructionCount',
  'StaticFlowControlCount',
  'DynamicFlowControlCount',
  'MacroInstructionCount',
  'TempArrayCount',
  'ArrayInstructionCount',
  'CutInstructionCount',
  'EmitInstructionCount',
  'TextureNormalInstructions',
  'TextureLoadInstructions',
  'TextureCompInstructions',
  'TextureBiasInstructions',
  'TextureGradientInstructions',
  'MovInstructionCount',
  'MovcInstructionCount',
  'ConversionInstructionCount',
  'Unknown22',
  'InputPrimitive',
  'GSOutputTopology',
  'GSMaxOutputVertexCount',
  'Unknown26',
  'Unknown27',
  'IsSampleFrequencyShader',
  // 5.0 only
  'cGSInstanceCount',
  'cControlPoints',
  'HSOutputPrimitive',
  'HSPartitioning',
  'TessellatorDomain',
  'cBarrierInstructions',
  'cInterlockedInstructions',
  'cTextureStoreInstructions',
] as const;

export type StatWord = (typeof STAT_WORDS)[number];

/** Each word's index by name (reflection asks for some thirty words of every container). */
const STAT_INDEX: ReadonlyMap<StatWord, number> = new Map(STAT_WORDS.map((w, i) => [w, i]));

export interface Stat {
  /** 29 (4.x) or 37 (5.0). */
  readonly wordCount: number;
  readonly words: readonly number[];
  /** The word by name; 0 for a 5.0 word absent from a 29-word part. */
  get(name: StatWord): number;
}

/** Reads a STAT payload (the Shader Model 4/5 form). */
export function readStat(data: Uint8Array, base = 0): Stat {
  const r = new ByteReader(data, { base, where: 'STAT', code: 'E201_PART_TRUNCATED' });
  if (data.byteLength % 4 !== 0 || data.byteLength < 4 * 29) {
    throw r.fail('E207_PART_BAD_VALUE', `the part is ${data.byteLength} bytes, not 29 or more whole words`, 0);
  }
  const n = Math.min(data.byteLength / 4, STAT_WORDS.length);
  const words: number[] = [];
  for (let i = 0; i < data.byteLength / 4; i++) words.push(r.u32At(4 * i));
  return {
    wordCount: data.byteLength / 4,
    words,
    get(name: StatWord): number {
      const i = STAT_INDEX.get(name) ?? n;
      return i < n ? (words[i] ?? 0) : 0;
    },
  };
}
