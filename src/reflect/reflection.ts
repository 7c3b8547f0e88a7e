// One reflection object for a Shader Model 4/5 container: what D3DReflect (d3dcompiler_47)
// reports, built from the parts (containers.md: signatures, RDEF, STAT, SFI0, IFCE, Aon9) and the
// few declarations of the token stream it also reads (dcl_thread_group, dcl_globalFlags).
// Field names follow D3D11_SHADER_DESC and ID3D11ShaderReflection's methods; d3d.ts writes the
// Microsoft-shaped JSON view of it.

import type { Container } from '../container/container.js';
import { IridiaError } from '../errors.js';
import { readSignature, type Signature, type SignatureElement, type SignatureKind } from '../parts/signature.js';
import { readRdef, type Rdef } from '../parts/rdef.js';
import { readStat, type Stat } from '../parts/stat.js';
import { readSfi0, type FeatureInfo } from '../parts/sfi0.js';
import { readIfce, type Ifce } from '../parts/ifce.js';
import { readAon9, type Aon9 } from '../parts/aon9.js';
import { readDeclarations, type Declarations } from './declarations.js';

/** D3D11_SHADER_DESC, field for field (the counts from STAT; zero where the part is absent). */
export interface ShaderDesc {
  Version: number;
  Creator: string | null;
  Flags: number;
  ConstantBuffers: number;
  BoundResources: number;
  InputParameters: number;
  OutputParameters: number;
  InstructionCount: number;
  TempRegisterCount: number;
  TempArrayCount: number;
  DefCount: number;
  DclCount: number;
  TextureNormalInstructions: number;
  TextureLoadInstructions: number;
  TextureCompInstructions: number;
  TextureBiasInstructions: number;
  TextureGradientInstructions: number;
  FloatInstructionCount: number;
  IntInstructionCount: number;
  UintInstructionCount: number;
  StaticFlowControlCount: number;
  DynamicFlowControlCount: number;
  MacroInstructionCount: number;
  ArrayInstructionCount: number;
  CutInstructionCount: number;
  EmitInstructionCount: number;
  GSOutputTopology: number;
  GSMaxOutputVertexCount: number;
  InputPrimitive: number;
  PatchConstantParameters: number;
  cGSInstanceCount: number;
  cControlPoints: number;
  HSOutputPrimitive: number;
  HSPartitioning: number;
  TessellatorDomain: number;
  cBarrierInstructions: number;
  cInterlockedInstructions: number;
  cTextureStoreInstructions: number;
}

/** A signature element as D3DReflect reports it (the system value named for pixel outputs). */
export interface ReflectedParameter extends SignatureElement {
  /** D3D_NAME: the stored value, or for a pixel program's outputs stored as 0 the name's value (SV_Target 64, ...). */
  readonly systemValueType: number;
}

export interface Reflection {
  /** The version token's type, major and minor (type << 16 | major << 4 | minor). */
  readonly version: number;
  readonly programType: number;
  readonly desc: ShaderDesc;
  readonly rdef: Rdef | undefined;
  readonly stat: Stat | undefined;
  readonly features: FeatureInfo | undefined;
  readonly ifce: Ifce | undefined;
  readonly aon9: Aon9 | undefined;
  readonly declarations: Declarations;
  readonly inputs: readonly ReflectedParameter[];
  readonly outputs: readonly ReflectedParameter[];
  readonly patchConstants: readonly ReflectedParameter[];
  /** The signature parts read, by kind. */
  readonly signatures: readonly Signature[];
  readonly movInstructionCount: number;
  readonly movcInstructionCount: number;
  readonly conversionInstructionCount: number;
  /** D3DReflect always reports 0 (no STAT word holds it). */
  readonly bitwiseInstructionCount: number;
  readonly gsInputPrimitive: number;
  readonly isSampleFrequencyShader: boolean;
  /**
   * IFCE's interface slot count, 0 without the part. D3DReflect leaves it uninitialised when the
   * container has no RDEF (its value there is whatever the heap held).
   */
  readonly numInterfaceSlots: number;
  /** D3D_FEATURE_LEVEL (0x9100 .. 0xb100). */
  readonly minFeatureLevel: number;
  /** D3D_SHADER_REQUIRES_* flags: SFI0 without bit 1, plus 0x2 for forced early depth-stencil. */
  readonly requiresFlags: bigint;
  readonly threadGroupSize: readonly [number, number, number];
}

/** Pixel outputs the runtime names by their semantic (stored system value 0). */
const PIXEL_OUTPUT_NAMES: Readonly<Record<string, number>> = {
  SV_TARGET: 64,
  SV_DEPTH: 65,
  SV_COVERAGE: 66,
  SV_DEPTHGREATEREQUAL: 67,
  SV_DEPTHLESSEQUAL: 68,
  SV_STENCILREF: 69,
};

const INPUT_KINDS: readonly SignatureKind[] = ['ISGN', 'ISG1'];
const OUTPUT_KINDS: readonly SignatureKind[] = ['OSGN', 'OSG5', 'OSG1'];
const PATCH_KINDS: readonly SignatureKind[] = ['PCSG', 'PSG1'];

/**
 * A signature element with its D3D_NAME. The fields are copied one by one, in the element's order,
 * not spread: an object spread costs several times the copy (it was 3% of the full listing's time).
 */
function reflectedParameter(e: SignatureElement, pixelOutput: boolean): ReflectedParameter {
  return {
    semanticName: e.semanticName,
    semanticIndex: e.semanticIndex,
    systemValue: e.systemValue,
    componentType: e.componentType,
    register: e.register,
    mask: e.mask,
    readWriteMask: e.readWriteMask,
    stream: e.stream,
    minPrecision: e.minPrecision,
    systemValueType:
      pixelOutput && e.systemValue === 0 ? (PIXEL_OUTPUT_NAMES[e.semanticName.toUpperCase()] ?? 0) : e.systemValue,
  };
}

/** Reflects a Shader Model 4/5 container. Throws IridiaError for what cannot be read. */
export function reflect(c: Container): Reflection {
  const part = (kind: string): { data: Uint8Array; base: number } | undefined => {
    const p = c.parts.find((q) => q.kind === kind);
    return p && { data: p.data, base: p.offset + 8 };
  };
  const program = c.parts.find((p) => p.kind === 'SHEX') ?? c.parts.find((p) => p.kind === 'SHDR');
  if (program === undefined) {
    throw new IridiaError(
      'E108_PART_MISSING',
      'the container has no SHEX or SHDR part: there is no program to reflect',
    );
  }
  const declarations = readDeclarations(c);
  const versionToken = declarations.versionToken;
  const programType = versionToken >>> 16;
  const version = (versionToken & 0xffff00ff) >>> 0;
  const major = (versionToken >>> 4) & 0xf;
  const minor = versionToken & 0xf;

  const signatures: Signature[] = [];
  const readSig = (kinds: readonly SignatureKind[]): Signature | undefined => {
    for (const k of kinds) {
      const p = part(k);
      if (p) {
        const s = readSignature(k, p.data, p.base);
        signatures.push(s);
        return s;
      }
    }
    return undefined;
  };
  const named = (s: Signature | undefined, pixelOutputs: boolean): ReflectedParameter[] =>
    s === undefined ? [] : s.elements.map((e) => reflectedParameter(e, pixelOutputs));
  const inputs = named(readSig(INPUT_KINDS), false);
  const outputs = named(readSig(OUTPUT_KINDS), programType === 0);
  const patchConstants = named(readSig(PATCH_KINDS), false);

  const rdefPart = part('RDEF');
  const rdef = rdefPart && readRdef(rdefPart.data, rdefPart.base);
  const statPart = part('STAT');
  const stat = statPart && readStat(statPart.data, statPart.base);
  const sfiPart = part('SFI0');
  const features = sfiPart && readSfi0(sfiPart.data, sfiPart.base);
  const ifcePart = part('IFCE');
  const ifce = ifcePart && readIfce(ifcePart.data, ifcePart.base);
  const aon9Part = part('Aon9');
  const aon9 = aon9Part && readAon9(aon9Part.data, aon9Part.base);

  const w = (name: Parameters<Stat['get']>[0]): number => stat?.get(name) ?? 0;
  const desc: ShaderDesc = {
    Version: version,
    Creator: rdef ? rdef.creator : null,
    Flags: rdef ? rdef.flags : 0,
    ConstantBuffers: rdef ? rdef.constantBuffers.length : 0,
    BoundResources: rdef ? rdef.bindings.length : 0,
    InputParameters: inputs.length,
    OutputParameters: outputs.length,
    InstructionCount: w('InstructionCount'),
    TempRegisterCount: w('TempRegisterCount'),
    TempArrayCount: w('TempArrayCount'),
    DefCount: w('DefCount'),
    DclCount: w('DclCount'),
    TextureNormalInstructions: w('TextureNormalInstructions'),
    TextureLoadInstructions: w('TextureLoadInstructions'),
    TextureCompInstructions: w('TextureCompInstructions'),
    TextureBiasInstructions: w('TextureBiasInstructions'),
    TextureGradientInstructions: w('TextureGradientInstructions'),
    FloatInstructionCount: w('FloatInstructionCount'),
    IntInstructionCount: w('IntInstructionCount'),
    UintInstructionCount: w('UintInstructionCount'),
    StaticFlowControlCount: w('StaticFlowControlCount'),
    DynamicFlowControlCount: w('DynamicFlowControlCount'),
    MacroInstructionCount: w('MacroInstructionCount'),
    ArrayInstructionCount: w('ArrayInstructionCount'),
    CutInstructionCount: w('CutInstructionCount'),
    EmitInstructionCount: w('EmitInstructionCount'),
    GSOutputTopology: w('GSOutputTopology'),
    GSMaxOutputVertexCount: w('GSMaxOutputVertexCount'),
    InputPrimitive: w('InputPrimitive'),
    PatchConstantParameters: patchConstants.length,
    cGSInstanceCount: w('cGSInstanceCount'),
    cControlPoints: w('cControlPoints'),
    HSOutputPrimitive: w('HSOutputPrimitive'),
    HSPartitioning: w('HSPartitioning'),
    TessellatorDomain: w('TessellatorDomain'),
    cBarrierInstructions: w('cBarrierInstructions'),
    cInterlockedInstructions: w('cInterlockedInstructions'),
    cTextureStoreInstructions: w('cTextureStoreInstructions'),
  };

  let requiresFlags = features ? features.mask & ~2n : 0n;
  if (declarations.globalFlags & 4) requiresFlags |= 2n; // forceEarlyDepthStencil
  const [x, y, z] = declarations.threadGroup ?? [0, 0, 0];
  return {
    version,
    programType,
    desc,
    rdef,
    stat,
    features,
    ifce,
    aon9,
    declarations,
    inputs,
    outputs,
    patchConstants,
    signatures,
    movInstructionCount: w('MovInstructionCount'),
    movcInstructionCount: w('MovcInstructionCount'),
    conversionInstructionCount: w('ConversionInstructionCount'),
    bitwiseInstructionCount: 0,
    gsInputPrimitive: w('InputPrimitive'),
    isSampleFrequencyShader: w('IsSampleFrequencyShader') !== 0,
    numInterfaceSlots: ifce ? ifce.interfaceSlotCount : 0,
    minFeatureLevel: minFeatureLevel(major, minor, aon9, features),
    requiresFlags,
    threadGroupSize: [x, y, z],
  };
}

/**
 * The lowest feature level the program runs at: level 9 from the Aon9 program's version (a 2_x
 * program, minor 1, needs 9_3), 10.0/10.1 for 4.0/4.1, 11.0 for 5.x, 11.1 where it needs more than
 * 8 UAV slots (SFI0 bit 3).
 */
export function minFeatureLevel(
  major: number,
  minor: number,
  aon9: Aon9 | undefined,
  features: FeatureInfo | undefined,
): number {
  if (aon9) return (aon9.programVersion & 0xff) >= 1 ? 0x9300 : 0x9100;
  if (major < 5) return minor >= 1 ? 0xa100 : 0xa000;
  return features && features.low & 0x8 ? 0xb100 : 0xb000;
}
