// The few token-stream declarations D3DReflect reads beside the parts: the version token, the
// global flags (forced early depth-stencil is a requires flag), the compute thread-group size and
// the GS/HS/DS declarations. Read with the SM4/5 decoder (src/sm4).

import type { Container } from '../container/container.js';
import { IridiaError } from '../errors.js';
import { decodeContainerProgram } from '../sm4/index.js';

export interface Declarations {
  readonly versionToken: number;
  /** dcl_globalFlags bits 11..16 (bit 0 refactoringAllowed .. bit 5 enableMinimumPrecision); 0 without one. */
  readonly globalFlags: number;
  readonly threadGroup: readonly [number, number, number] | undefined;
  /** dcl_inputprimitive (D3D_PRIMITIVE), dcl_outputtopology, dcl_maxout, dcl_gsinstances. */
  readonly gsInputPrimitive: number | undefined;
  readonly gsOutputTopology: number | undefined;
  readonly gsMaxOutputVertexCount: number | undefined;
  readonly gsInstanceCount: number | undefined;
  /** dcl_input_control_point_count / dcl_output_control_point_count. */
  readonly inputControlPoints: number | undefined;
  readonly outputControlPoints: number | undefined;
  readonly tessellatorDomain: number | undefined;
  readonly tessellatorPartitioning: number | undefined;
  readonly tessellatorOutputPrimitive: number | undefined;
  readonly maxTessFactor: number | undefined;
  /** Interface slots declared by dcl_interface (array lengths summed). */
  readonly interfaceSlots: number;
  /** The program declares output streams (dcl_stream): signature rows are named m<stream>:. */
  readonly streams: boolean;
  /** The program uses abort, debug_break or printf (shader message customdata): debug layer only. */
  readonly debugLayer: boolean;
}

const field = (token: number, shift: number, bits: number): number => (token >>> shift) & ((1 << bits) - 1);

export function readDeclarations(c: Container): Declarations {
  const program = decodeContainerProgram(c);
  if (program === undefined) throw new IridiaError('E108_PART_MISSING', 'the container has no SHEX or SHDR part');
  const v = program.version;
  let globalFlags = 0;
  let threadGroup: [number, number, number] | undefined;
  const d: {
    -readonly [K in keyof Declarations]?: Declarations[K];
  } = {};
  let interfaceSlots = 0;
  let streams = false;
  let debugLayer = false;
  for (const ins of program.instructions) {
    switch (ins.opcode) {
      case 0x6a:
        globalFlags = field(ins.token, 11, 13);
        break;
      case 0x9b:
        threadGroup = [ins.values[0] ?? 0, ins.values[1] ?? 0, ins.values[2] ?? 0];
        break;
      case 0x5d:
        d.gsInputPrimitive = field(ins.token, 11, 6);
        break;
      case 0x5c:
        d.gsOutputTopology = field(ins.token, 11, 7);
        break;
      case 0x5e:
        d.gsMaxOutputVertexCount = ins.values[0] ?? ins.operands[0]?.values?.[0] ?? 0;
        break;
      case 0xce:
        d.gsInstanceCount = ins.values[0] ?? 0;
        break;
      case 0x93:
        d.inputControlPoints = field(ins.token, 11, 6);
        break;
      case 0x94:
        d.outputControlPoints = field(ins.token, 11, 6);
        break;
      case 0x95:
        d.tessellatorDomain = field(ins.token, 11, 2);
        break;
      case 0x96:
        d.tessellatorPartitioning = field(ins.token, 11, 3);
        break;
      case 0x97:
        d.tessellatorOutputPrimitive = field(ins.token, 11, 3);
        break;
      case 0x92:
        // dcl_interface: fp#, call sites, then (table count | array length << 16).
        interfaceSlots += (ins.values[2] ?? 0) >>> 16;
        break;
      case 0x8f:
        streams = true;
        break;
      case 0xcf:
      case 0xd0:
        debugLayer = true;
        break;
      case 0x35:
        if (ins.customData?.dataClass === 4) debugLayer = true;
        break;
      default:
        break;
    }
  }
  return {
    versionToken: ((v.type << 16) | (v.major << 4) | v.minor) >>> 0,
    globalFlags,
    threadGroup,
    gsInputPrimitive: d.gsInputPrimitive,
    gsOutputTopology: d.gsOutputTopology,
    gsMaxOutputVertexCount: d.gsMaxOutputVertexCount,
    gsInstanceCount: d.gsInstanceCount,
    inputControlPoints: d.inputControlPoints,
    outputControlPoints: d.outputControlPoints,
    tessellatorDomain: d.tessellatorDomain,
    tessellatorPartitioning: d.tessellatorPartitioning,
    tessellatorOutputPrimitive: d.tessellatorOutputPrimitive,
    maxTessFactor: d.maxTessFactor,
    interfaceSlots,
    streams,
    debugLayer,
  };
}
