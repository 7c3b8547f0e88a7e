// Printing Shader Model 4/5/5.1 declarations as D3DDisassemble does: dcl_* lines with their
// control bits (dimensions, interpolation, sampler modes, flags), trailing words (counts, system
// values, strides, register spaces) and the immediate constant buffer.

import type { Instruction, Operand } from '../sm4/types.js';
import { OPCODES } from '../sm4/opcodes.js';
import { formatFixed, formatHex, formatUntyped, bitsToFloat, type Crt } from './literal.js';
import {
  GLOBAL_FLAGS,
  INPUT_PRIMITIVES,
  INTERPOLATION,
  OUTPUT_TOPOLOGIES,
  RESOURCE_DIMENSIONS,
  RETURN_TYPES,
  SAMPLER_MODES,
  SYSTEM_VALUES,
  TESS_DOMAINS,
  TESS_OUTPUTS,
  TESS_PARTITIONINGS,
} from './names.js';
import { precisionName, printOperand, registerText, type OperandContext } from './operand.js';

const bits = (token: number, lo: number, n: number): number => (token >>> lo) & ((1 << n) - 1);

export function returnTypes(word: number): string {
  const t: string[] = [];
  for (let i = 0; i < 4; i++) t.push(RETURN_TYPES[(word >>> (i * 4)) & 0xf] ?? '<unknown>');
  return `(${t.join(',')})`;
}

function systemValue(v: number): string {
  return SYSTEM_VALUES[v] ?? `sv${v}`;
}

/** A binding operand: 5.0 `t0`; 5.1 `T0[0:3]` (id, first and last register, * when unbounded). */
function binding(op: Operand, ctx: OperandContext): string {
  if (!ctx.is51 || op.indices.length < 3) return registerText(op, ctx);
  const id = op.indices[0]!.imm;
  const lo = op.indices[1]!.imm >>> 0;
  const hi = op.indices[2]!.imm >>> 0;
  const name = registerText({ ...op, indices: [] }, ctx);
  return `${name}${id}[${lo}:${hi === 0xffffffff ? '*' : hi}]`;
}

/** The 5.1 register space word of a binding declaration. */
function space(ctx: OperandContext, v: readonly number[], i: number): string {
  return ctx.is51 ? `, space=${v[i] ?? 0}` : '';
}

function plain(op: Operand, ctx: OperandContext): string {
  return printOperand(op, ctx, 'i', precisionName(op));
}

/** The text of a declaration (without prefixes), or undefined when the opcode is no declaration. */
export function printDeclaration(ins: Instruction, ctx: OperandContext): string | undefined {
  const t = ins.token;
  const op0 = ins.operands[0];
  const v = ins.values;
  switch (ins.opcode) {
    case 0x58: {
      // dcl_resource
      const dim = bits(t, 11, 5);
      const samples = bits(t, 16, 7);
      const ms = dim === 4 || dim === 9 ? `(${samples})` : '';
      return `dcl_resource_${RESOURCE_DIMENSIONS[dim] ?? dim}${ms} ${returnTypes(v[0] ?? 0)} ${binding(op0!, ctx)}${space(ctx, v, 1)}`;
    }
    case 0x59: {
      const access = bits(t, 11, 1) ? 'dynamicIndexed' : 'immediateIndexed';
      if (ctx.is51) return `dcl_constantbuffer ${binding(op0!, ctx)}[${v[0]}], ${access}${space(ctx, v, 1)}`;
      const cb = registerText(op0!, ctx);
      return `dcl_constantbuffer ${ctx.era?.upperCaseConstantBufferDecl === false ? cb : cb.toUpperCase()}, ${access}`;
    }
    case 0x5a:
      return `dcl_sampler ${binding(op0!, ctx)}, ${SAMPLER_MODES[bits(t, 11, 4)] ?? 'mode_unknown'}${space(ctx, v, 0)}`;
    case 0x5b:
      return `dcl_indexrange ${plain(op0!, ctx)} ${v[0]}`;
    case 0x5c:
      return `dcl_outputtopology ${OUTPUT_TOPOLOGIES[bits(t, 11, 7)] ?? bits(t, 11, 7)} `;
    case 0x5d: {
      const p = bits(t, 11, 6);
      return `dcl_inputprimitive ${p >= 8 ? `patch${p - 7}` : (INPUT_PRIMITIVES[p] ?? p)} `;
    }
    case 0x5e:
      return `dcl_maxout ${v[0]}`;
    case 0x5f:
    case 0x65:
    case 0x8f:
      return `${OPCODES[ins.opcode]!.name} ${plain(op0!, ctx)}`;
    case 0x60:
    case 0x61:
    case 0x66:
    case 0x67:
      return `${OPCODES[ins.opcode]!.name} ${plain(op0!, ctx)}, ${systemValue(v[0] ?? 0)}`;
    case 0x62:
      return `dcl_input_ps ${interpolation(t)} ${plain(op0!, ctx)}`;
    case 0x63:
      // dcl_input_ps_sgv: before 10.x without its interpolation mode
      if (ctx.era?.sgvInterpolation === false)
        return `${OPCODES[ins.opcode]!.name} ${plain(op0!, ctx)}, ${systemValue(v[0] ?? 0)}`;
      return `${OPCODES[ins.opcode]!.name} ${interpolation(t)} ${plain(op0!, ctx)}, ${systemValue(v[0] ?? 0)}`;
    case 0x64:
      return `${OPCODES[ins.opcode]!.name} ${interpolation(t)} ${plain(op0!, ctx)}, ${systemValue(v[0] ?? 0)}`;
    case 0x68:
      return `dcl_temps ${v[0]}`;
    case 0x69:
      return `dcl_indexableTemp x${v[0]}[${v[1]}], ${v[2]}`;
    case 0x6a: {
      const f: string[] = [];
      const flags = t >>> 11;
      for (let i = 0; i < GLOBAL_FLAGS.length; i++) if (flags & (1 << i)) f.push(GLOBAL_FLAGS[i]!);
      return `dcl_globalFlags ${f.join(' | ')}`;
    }
    case 0x90:
      return `dcl_function_body fb${v[0]}`;
    case 0x91:
      return `dcl_function_table ft${v[0]} = {${v
        .slice(2)
        .map((b) => `fb${b}`)
        .join(', ')}}`;
    case 0x92: {
      const tables = v.slice(3).map((x) => `ft${x}`);
      const arraySize = (v[2] ?? 0) >>> 16;
      const dyn = bits(t, 11, 1) ? '_dynamicindexed' : '';
      return `dcl_interface${dyn} fp${v[0]}[${arraySize}][${v[1]}] = {${tables.join(', ')}}`;
    }
    case 0x93:
    case 0x94:
      return `${OPCODES[ins.opcode]!.name} ${bits(t, 11, 6)}`;
    case 0x95:
      return `dcl_tessellator_domain ${TESS_DOMAINS[bits(t, 11, 2)] ?? bits(t, 11, 2)}`;
    case 0x96:
      return `dcl_tessellator_partitioning ${TESS_PARTITIONINGS[bits(t, 11, 3)] ?? bits(t, 11, 3)}`;
    case 0x97:
      return `dcl_tessellator_output_primitive ${TESS_OUTPUTS[bits(t, 11, 3)] ?? bits(t, 11, 3)}`;
    case 0x98:
      return `dcl_hs_max_tessfactor l(${formatFixed(bitsToFloat(v[0] ?? 0), 6, ctx.era?.crt)})`;
    case 0x99:
    case 0x9a:
    case 0xce:
      return `${OPCODES[ins.opcode]!.name} ${v[0]}`;
    case 0x9b:
      return `dcl_thread_group ${v[0]}, ${v[1]}, ${v[2]}`;
    case 0x9c: {
      const dim = bits(t, 11, 5);
      return `dcl_uav_typed_${RESOURCE_DIMENSIONS[dim] ?? dim}${uavFlags(t)} ${returnTypes(v[0] ?? 0)} ${binding(op0!, ctx)}${space(ctx, v, 1)}`;
    }
    case 0x9d:
      return `dcl_uav_raw${uavFlags(t)} ${binding(op0!, ctx)}${space(ctx, v, 0)}`;
    case 0x9e:
      return `dcl_uav_structured${uavFlags(t)}${bits(t, 23, 1) ? '_opc' : ''} ${binding(op0!, ctx)}, ${v[0]}${space(ctx, v, 1)}`;
    case 0x9f:
      return `dcl_tgsm_raw ${registerText(op0!, ctx)}, ${v[0]}`;
    case 0xa0:
      return `dcl_tgsm_structured ${registerText(op0!, ctx)}, ${v[0]}, ${v[1]}`;
    case 0xa1:
      return `dcl_resource_raw ${binding(op0!, ctx)}${space(ctx, v, 0)}`;
    case 0xa2:
      return `dcl_resource_structured ${binding(op0!, ctx)}, ${v[0]}${space(ctx, v, 1)}${ctx.era?.structuredResourceSpace ? ' ' : ''}`;
    default:
      return undefined;
  }
}

function interpolation(t: number): string {
  return INTERPOLATION[bits(t, 11, 4)] ?? `interpolation${bits(t, 11, 4)}`;
}

function uavFlags(t: number): string {
  return (bits(t, 16, 1) ? '_glc' : '') + (bits(t, 17, 1) ? '_rov' : '');
}

/** dcl_immediateConstantBuffer, laid out as fxc does: rows of four lanes aligned under the first. */
export function printImmediateConstantBuffer(words: Uint32Array, hex: boolean, crt: Crt = 'ucrt'): string {
  const head = 'dcl_immediateConstantBuffer { ';
  const pad = ' '.repeat(head.length);
  const rows: string[] = [];
  for (let i = 0; i + 3 < words.length || i < words.length; i += 4) {
    const lanes: string[] = [];
    for (let j = 0; j < 4 && i + j < words.length; j++) {
      const w = words[i + j]!;
      lanes.push(hex ? formatHex(w) : formatUntyped(w, crt));
    }
    rows.push(`{ ${lanes.join(', ')}}`);
  }
  return head + rows.join(`,\n${pad}`) + ' }';
}
