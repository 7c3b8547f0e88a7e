// The PSV0 part (DxilPipelineStateValidation.h): the runtime-info structure in its five sizes (24
// bytes version 0, 36 version 1, 48 version 2, 52 version 3, 56 version 4), resource bindings (16 or
// 24 bytes each), and from version 1 the string table, the semantic-index table, the signature
// elements (16 bytes each) and the ViewID / input-to-output dependency masks, kept raw.

import { ByteReader } from '../binary/reader.js';
import { hex } from '../errors.js';

export const PSV_INFO_SIZES = [24, 36, 48, 52, 56] as const;

export interface PsvResource {
  readonly type: number;
  readonly space: number;
  readonly lowerBound: number;
  readonly upperBound: number;
  readonly kind?: number;
  readonly flags?: number;
}

export interface PsvSignatureElement {
  readonly name: string;
  readonly indices: readonly number[];
  readonly rows: number;
  readonly startRow: number;
  readonly cols: number;
  readonly startCol: number;
  readonly allocated: boolean;
  readonly semanticKind: number;
  readonly componentType: number;
  readonly interpolationMode: number;
  readonly dynamicMask: number;
  readonly stream: number;
}

export interface Psv0 {
  /** 0..4, from the runtime-info size. */
  readonly version: number;
  readonly infoSize: number;
  /** The 16-byte stage union of PSVRuntimeInfo0, as four dwords. */
  readonly stageWords: readonly [number, number, number, number];
  readonly minWaveLanes: number;
  readonly maxWaveLanes: number;
  readonly shaderStage?: number;
  readonly usesViewID?: boolean;
  /** Union at info1 offset 2: GS max vertex count / patch-constant or primitive vectors. */
  readonly stageWord1?: number;
  readonly sigInputElements?: number;
  readonly sigOutputElements?: number;
  readonly sigPatchConstOrPrimElements?: number;
  readonly sigInputVectors?: number;
  readonly sigOutputVectors?: readonly number[];
  readonly numThreads?: readonly [number, number, number];
  readonly entryFunctionName?: string;
  readonly groupSharedBytes?: number;
  readonly resources: readonly PsvResource[];
  readonly inputs: readonly PsvSignatureElement[];
  readonly outputs: readonly PsvSignatureElement[];
  readonly patchConstOrPrim: readonly PsvSignatureElement[];
  /** Everything after the signature elements (ViewID masks and dependency tables), raw. */
  readonly tables: Uint8Array;
  /** Per output stream: the output scalars that depend on ViewID (bit per scalar), when UsesViewID. */
  readonly viewIdOutputMasks: readonly (readonly number[] | undefined)[];
  readonly viewIdPatchConstOrPrimMask?: readonly number[];
  /** Per output stream: for each input scalar, the output scalars it contributes to (dwords). */
  readonly inputToOutput: readonly (readonly number[] | undefined)[];
  /** Hull programs: input scalars to patch-constant outputs. */
  readonly inputToPatchConstant?: readonly number[];
  /** Domain programs: patch-constant input scalars to outputs. */
  readonly patchConstantToOutput?: readonly number[];
}

export function readPsv0(data: Uint8Array, base = 0): Psv0 {
  const r = new ByteReader(data, { base, where: 'PSV0', code: 'E201_PART_TRUNCATED' });
  const infoSize = r.u32At(0, 'the runtime-info size');
  const version = PSV_INFO_SIZES.indexOf(infoSize as (typeof PSV_INFO_SIZES)[number]);
  if (version < 0 && infoSize < 24)
    throw r.fail(
      'E207_PART_BAD_VALUE',
      `the runtime-info size ${infoSize} is not one PSV0 knows (24, 36, 48, 52, 56)`,
      0,
    );
  const v = version < 0 ? 4 : version;
  r.require(4, infoSize, 'the runtime info');
  const at = 4;
  const stageWords: [number, number, number, number] = [
    r.u32At(at),
    r.u32At(at + 4),
    r.u32At(at + 8),
    r.u32At(at + 12),
  ];
  const out: {
    -readonly [K in keyof Psv0]: Psv0[K];
  } = {
    version: v,
    infoSize,
    stageWords,
    minWaveLanes: r.u32At(at + 16),
    maxWaveLanes: r.u32At(at + 20),
    resources: [],
    inputs: [],
    outputs: [],
    patchConstOrPrim: [],
    tables: new Uint8Array(0),
    viewIdOutputMasks: [],
    inputToOutput: [],
  };
  if (v >= 1) {
    out.shaderStage = r.u8At(at + 24);
    out.usesViewID = r.u8At(at + 25) !== 0;
    out.stageWord1 = r.u16At(at + 26);
    out.sigInputElements = r.u8At(at + 28);
    out.sigOutputElements = r.u8At(at + 29);
    out.sigPatchConstOrPrimElements = r.u8At(at + 30);
    out.sigInputVectors = r.u8At(at + 31);
    out.sigOutputVectors = [r.u8At(at + 32), r.u8At(at + 33), r.u8At(at + 34), r.u8At(at + 35)];
  }
  if (v >= 2) out.numThreads = [r.u32At(at + 36), r.u32At(at + 40), r.u32At(at + 44)];
  let pos = 4 + infoSize;
  const resourceCount = r.u32At(pos, 'the resource count');
  pos += 4;
  if (resourceCount > 0) {
    const size = r.u32At(pos, 'the resource record size');
    pos += 4;
    if (size < 16) throw r.fail('E207_PART_BAD_VALUE', `resource records of ${size} bytes are too small`, pos - 4);
    if (resourceCount > Math.floor((data.byteLength - pos) / size))
      throw r.fail('E203_PART_BAD_COUNT', `${resourceCount} resources of ${size} bytes do not fit`, pos - 8);
    const res: PsvResource[] = [];
    for (let i = 0; i < resourceCount; i++, pos += size) {
      // Two literal shapes, not a spread of one into the other (a spread took 2% of /Fc's time).
      const type = r.u32At(pos);
      const space = r.u32At(pos + 4);
      const lowerBound = r.u32At(pos + 8);
      const upperBound = r.u32At(pos + 12);
      res.push(
        size >= 24
          ? { type, space, lowerBound, upperBound, kind: r.u32At(pos + 16), flags: r.u32At(pos + 20) }
          : { type, space, lowerBound, upperBound },
      );
    }
    out.resources = res;
  }
  if (v < 1) return out;
  const stringSize = r.u32At(pos, 'the string table size');
  pos += 4;
  const strings = r.slice(pos, stringSize, 'the string table');
  const strAt = (o: number): string => {
    if (o >= strings.byteLength)
      throw r.fail('E202_PART_BAD_OFFSET', `string offset ${hex(o)} is past the string table`, pos);
    let e = o;
    while (e < strings.byteLength && strings[e] !== 0) e++;
    let s = '';
    for (let i = o; i < e; i++) s += String.fromCharCode(strings[i]!);
    return s;
  };
  pos += stringSize;
  if (v >= 3) out.entryFunctionName = strAt(r.u32At(4 + 48));
  if (v >= 4) out.groupSharedBytes = r.u32At(4 + 52);
  const indexCount = r.u32At(pos, 'the semantic index count');
  pos += 4;
  if (indexCount > Math.floor((data.byteLength - pos) / 4))
    throw r.fail('E203_PART_BAD_COUNT', `${indexCount} semantic indices do not fit`, pos - 4);
  const indexAt = pos;
  pos += indexCount * 4;
  const total = (out.sigInputElements ?? 0) + (out.sigOutputElements ?? 0) + (out.sigPatchConstOrPrimElements ?? 0);
  const elems: PsvSignatureElement[] = [];
  if (total > 0) {
    const size = r.u32At(pos, 'the signature element size');
    pos += 4;
    if (size < 16) throw r.fail('E207_PART_BAD_VALUE', `signature elements of ${size} bytes are too small`, pos - 4);
    if (total > Math.floor((data.byteLength - pos) / size))
      throw r.fail('E203_PART_BAD_COUNT', `${total} signature elements of ${size} bytes do not fit`, pos);
    for (let i = 0; i < total; i++, pos += size) {
      const name = strAt(r.u32At(pos));
      const idx = r.u32At(pos + 4);
      const rows = r.u8At(pos + 8);
      const cs = r.u8At(pos + 10);
      const indices: number[] = [];
      for (let k = 0; k < rows; k++) {
        if (idx + k >= indexCount)
          throw r.fail('E202_PART_BAD_OFFSET', `semantic index ${idx + k} is past the table`, pos + 4);
        indices.push(r.u32At(indexAt + 4 * (idx + k)));
      }
      const dm = r.u8At(pos + 14);
      elems.push({
        name,
        indices,
        rows,
        startRow: r.u8At(pos + 9),
        cols: cs & 0xf,
        startCol: (cs >>> 4) & 3,
        allocated: (cs & 0x40) !== 0,
        semanticKind: r.u8At(pos + 11),
        componentType: r.u8At(pos + 12),
        interpolationMode: r.u8At(pos + 13),
        dynamicMask: dm & 0xf,
        stream: (dm >>> 4) & 3,
      });
    }
  }
  const ni = out.sigInputElements ?? 0;
  const no = out.sigOutputElements ?? 0;
  out.inputs = elems.slice(0, ni);
  out.outputs = elems.slice(ni, ni + no);
  out.patchConstOrPrim = elems.slice(ni + no);
  out.tables = data.subarray(pos);
  readDependencies(r, pos, out);
  return out;
}

const maskDwords = (vectors: number): number => (vectors + 7) >>> 3;

/** The ViewID masks and input/output dependency tables (DxilPipelineStateValidation's ReadOrWrite). */
function readDependencies(r: ByteReader, start: number, out: { -readonly [K in keyof Psv0]: Psv0[K] }): void {
  let pos = start;
  const dwords = (n: number, what: string): number[] => {
    r.require(pos, n * 4, what);
    const v: number[] = [];
    for (let i = 0; i < n; i++) v.push(r.u32At(pos + 4 * i));
    pos += n * 4;
    return v;
  };
  const stage = out.shaderStage ?? -1;
  const gs = stage === 2;
  const hs = stage === 3;
  const ds = stage === 4;
  const ms = stage === 13;
  const outs = out.sigOutputVectors ?? [0, 0, 0, 0];
  const ins = out.sigInputVectors ?? 0;
  const pc = gs ? 0 : (out.stageWord1 ?? 0) & 0xff;
  const streams = gs ? 4 : 1;
  if (out.usesViewID) {
    const masks: (number[] | undefined)[] = [];
    for (let i = 0; i < streams; i++)
      masks.push(outs[i] ? dwords(maskDwords(outs[i]!), 'a ViewID output mask') : undefined);
    out.viewIdOutputMasks = masks;
    if ((hs || ms) && pc) out.viewIdPatchConstOrPrimMask = dwords(maskDwords(pc), 'a ViewID mask');
  }
  const tables: (number[] | undefined)[] = [];
  for (let i = 0; i < streams; i++)
    tables.push(
      !ms && outs[i]! > 0 && ins > 0 ? dwords(maskDwords(outs[i]!) * ins * 4, 'an input-to-output table') : undefined,
    );
  out.inputToOutput = tables;
  if (hs && pc > 0 && ins > 0)
    out.inputToPatchConstant = dwords(maskDwords(pc) * ins * 4, 'an input-to-patch-constant table');
  if (ds && outs[0]! > 0 && pc > 0)
    out.patchConstantToOutput = dwords(maskDwords(outs[0]!) * pc * 4, 'a patch-constant table');
}
