// Declarations as src/disasm/declaration.ts prints them, read back into their tokens: the control
// bits the mnemonic and its words spell (dimension, sample count, interpolation mode, sampler mode,
// flags, topologies, tessellator enumerations), the operand, and the words after it (return types,
// system values, counts, strides, 5.1 ranges `T0[0:3]` and register spaces). Every spelling is the
// printer's own table (disasm/names.ts) inverted.

import { OPCODES } from '../sm4/opcodes.js';
import {
  GLOBAL_FLAGS,
  INPUT_PRIMITIVES,
  INTERPOLATION,
  OUTPUT_TOPOLOGIES,
  SAMPLER_MODES,
  SYSTEM_VALUES,
  TESS_DOMAINS,
  TESS_OUTPUTS,
  TESS_PARTITIONINGS,
} from '../disasm/names.js';
import { laneBits, type Cursor } from './text.js';
import { encodeOperand, readOperand, registerType, type OperandText } from './operand.js';
import { DIMENSIONS, finish, readReturnTypes } from './instruction.js';

/** Names to numbers of an enumeration printed by name (an array or a record keyed by number). */
function inverse(table: readonly (string | undefined)[] | Readonly<Record<number, string>>): Map<string, number> {
  const m = new Map<string, number>();
  for (const [k, v] of Object.entries(table)) if (v !== undefined && !m.has(v)) m.set(v, Number(k));
  return m;
}
const SYSTEM = inverse(SYSTEM_VALUES);
const SAMPLERS = inverse(SAMPLER_MODES);
const TOPOLOGIES = inverse(OUTPUT_TOPOLOGIES);
const PRIMITIVES = inverse(INPUT_PRIMITIVES);
const DOMAINS = inverse(TESS_DOMAINS);
const PARTITIONINGS = inverse(TESS_PARTITIONINGS);
const OUTPUTS = inverse(TESS_OUTPUTS);
const FLAGS = inverse(GLOBAL_FLAGS);
/** Interpolation modes, longest first (`linear noperspective centroid` before `linear`). */
const INTERPOLATIONS = [...inverse(INTERPOLATION)].sort((a, b) => b[0].length - a[0].length);

/** Declarations spelled `name` + operand (+ words) whose mnemonic is the table's name as it is. */
const BY_NAME = new Map<string, number>();
for (const o of OPCODES) if (o?.decl) BY_NAME.set(o.name, o.opcode);

/** An enumeration value by name at the cursor (names are words of letters, digits and _). */
function named(c: Cursor, table: Map<string, number>, what: string): number {
  const at = c.i;
  const n = c.word(/[A-Za-z0-9_]/);
  const v = table.get(n);
  if (v === undefined) throw c.fail('E901_ASM_SYNTAX', `no ${what} ${JSON.stringify(n)}`, at);
  return v;
}

interface Ctx {
  readonly c: Cursor;
  readonly major: number;
  readonly is51: boolean;
  /** The words after the opcode token. */
  readonly w: number[];
}

function operand(x: Ctx, swizzled = false): OperandText {
  const op = readOperand(x.c, x.major);
  encodeOperand(x.c, op, 'declaration', x.w, swizzled);
  return op;
}

/** A binding: 5.0 `t0` (an operand), 5.1 `T0[0:3]` (id, first and last register; `*` unbounded). */
function binding(x: Ctx, extra = false): void {
  const c = x.c;
  if (!x.is51) {
    operand(x, c.startsWith('CB') || c.startsWith('cb'));
    return;
  }
  const at = c.i;
  const type = registerType(c, x.major);
  const id = c.count('a range id');
  c.expect('[');
  const lo = c.count('the first register');
  c.expect(':');
  const hi = c.eat('*') ? 0xffffffff : c.count('the last register');
  c.expect(']');
  const op: OperandText = {
    at,
    type,
    form: 'reg',
    indices: [{ imm: id }, { imm: lo }, { imm: hi }],
    lanes: '',
    values: [],
    modifier: 0,
    minPrecision: 0,
    nonUniform: false,
  };
  encodeOperand(c, op, 'declaration', x.w, true);
  if (extra) {
    c.expect('[');
    x.w.push(c.count('the buffer size'));
    c.expect(']');
  }
}

function space(x: Ctx): void {
  if (!x.is51) return;
  x.c.expect(', space=');
  x.w.push(x.c.count('a register space'));
}

function comma(x: Ctx): void {
  x.c.expect(', ');
}

function num(x: Ctx, what: string): void {
  x.w.push(x.c.count(what));
}

/**
 * A declaration's words after its mnemonic, as a pattern of the printer's pieces: `_` a space, `,`
 * a comma and space, `o` an operand, `b` a binding, `n` a count (`what` names them in order), `S`
 * 5.1's `, space=N`.
 */
function steps(x: Ctx, pattern: string, ...what: string[]): void {
  let k = 0;
  for (const ch of pattern) {
    if (ch === '_') x.c.expect(' ');
    else if (ch === ',') comma(x);
    else if (ch === 'o') operand(x);
    else if (ch === 'b') binding(x);
    else if (ch === 'n') num(x, what[k++] ?? 'a count');
    else space(x);
  }
}

/** ` (float,float,float,float) t0[, space=N]`: a typed resource or UAV; the return-type word follows the operand. */
function typedBinding(x: Ctx): void {
  x.c.expect(' ');
  const ret = readReturnTypes(x.c);
  x.c.expect(' ');
  binding(x);
  x.w.push(ret);
  space(x);
}

/** The flags _glc, _rov (and _opc) after a UAV's mnemonic. */
function uavFlags(rest: string, c: Cursor, at: number, opc: boolean): number {
  const m = (opc ? /^(_glc)?(_rov)?(_opc)?$/ : /^(_glc)?(_rov)?$/).exec(rest);
  if (!m) throw c.fail('E902_ASM_MNEMONIC', `unknown UAV flags ${JSON.stringify(rest)}`, at);
  return (m[1] ? 1 << 16 : 0) | (m[2] ? 1 << 17 : 0) | (m[3] ? 1 << 23 : 0);
}

/**
 * One declaration statement at the cursor, or false when its mnemonic is no declaration (hs_decls
 * counts as one: the printer lists it with them).
 */
export function assembleDeclaration(c: Cursor, major: number, minor: number, out: number[]): boolean {
  const start = c.i;
  const word = c.word(/[A-Za-z0-9_]/);
  if (!word.startsWith('dcl_') && word !== 'hs_decls') {
    c.i = start;
    return false;
  }
  const x: Ctx = { c, major, is51: major > 5 || (major === 5 && minor >= 1), w: [0] };
  let opcode: number;
  let token = 0;
  const sp = (): void => c.expect(' ');
  const rest = (prefix: string): string | undefined =>
    word.startsWith(prefix) ? word.slice(prefix.length) : undefined;
  let r: string | undefined;
  if (word === 'dcl_resource_raw') {
    opcode = 0xa1;
    steps(x, '_bS');
  } else if (word === 'dcl_resource_structured') {
    opcode = 0xa2;
    steps(x, '_b,nS', 'a stride');
    // 6.3 .. 9.29 printed a space after it
    c.eat(' ');
  } else if ((r = rest('dcl_resource_')) !== undefined) {
    opcode = 0x58;
    const dim = DIMENSIONS.get(r);
    if (dim === undefined) throw c.fail('E902_ASM_MNEMONIC', `no resource dimension ${JSON.stringify(r)}`, start);
    token = dim << 11;
    if (dim === 4 || dim === 9) {
      c.expect('(');
      token |= c.count('a sample count', 127) << 16;
      c.expect(')');
    }
    typedBinding(x);
  } else if (word === 'dcl_constantbuffer') {
    opcode = 0x59;
    sp();
    binding(x, x.is51);
    comma(x);
    const at = c.i;
    const access = c.word(/[A-Za-z]/);
    if (access === 'dynamicIndexed') token = 1 << 11;
    else if (access !== 'immediateIndexed')
      throw c.fail(
        'E901_ASM_SYNTAX',
        `expected immediateIndexed or dynamicIndexed, found ${JSON.stringify(access)}`,
        at,
      );
    space(x);
  } else if (word === 'dcl_sampler') {
    opcode = 0x5a;
    sp();
    binding(x);
    comma(x);
    token = named(c, SAMPLERS, 'sampler mode') << 11;
    space(x);
  } else if (word === 'dcl_indexrange') {
    opcode = 0x5b;
    steps(x, '_o_n', 'a register count');
  } else if (word === 'dcl_outputtopology') {
    opcode = 0x5c;
    sp();
    token = named(c, TOPOLOGIES, 'output topology') << 11;
  } else if (word === 'dcl_inputprimitive') {
    opcode = 0x5d;
    sp();
    if (c.eat('patch')) token = (c.count('a control point count', 32) + 7) << 11;
    else token = named(c, PRIMITIVES, 'input primitive') << 11;
  } else if (word === 'dcl_maxout') {
    opcode = 0x5e;
    steps(x, '_n', 'a vertex count');
  } else if (word === 'dcl_input' || word === 'dcl_output' || word === 'dcl_stream') {
    opcode = BY_NAME.get(word)!;
    steps(x, '_o');
  } else if (['dcl_input_sgv', 'dcl_input_siv', 'dcl_output_sgv', 'dcl_output_siv'].includes(word)) {
    opcode = BY_NAME.get(word)!;
    sp();
    operand(x);
    comma(x);
    x.w.push(systemValue(c));
  } else if (word === 'dcl_input_ps' || word === 'dcl_input_ps_sgv' || word === 'dcl_input_ps_siv') {
    opcode = BY_NAME.get(word)!;
    sp();
    const mode = INTERPOLATIONS.find(([n]) => c.startsWith(`${n} `));
    // dcl_input_ps_sgv of the compilers before 10.x has no mode
    if (mode === undefined && word !== 'dcl_input_ps_sgv')
      throw c.fail('E901_ASM_SYNTAX', `expected an interpolation mode, found ${c.found()}`);
    if (mode) {
      c.i += mode[0].length + 1;
      token = mode[1] << 11;
    }
    operand(x);
    if (word !== 'dcl_input_ps') {
      comma(x);
      x.w.push(systemValue(c));
    }
  } else if (word === 'dcl_temps') {
    opcode = 0x68;
    steps(x, '_n', 'a register count');
  } else if (word === 'dcl_indexableTemp') {
    opcode = 0x69;
    c.expect(' x');
    num(x, 'a register number');
    c.expect('[');
    num(x, 'a register count');
    c.expect('], ');
    num(x, 'a component count');
  } else if (word === 'dcl_globalFlags') {
    opcode = 0x6a;
    sp();
    while (!c.done) {
      token |= 1 << (named(c, FLAGS, 'global flag') + 11);
      if (!c.eat(' | ')) break;
    }
  } else if (word === 'dcl_function_body') {
    opcode = 0x90;
    c.expect(' fb');
    num(x, 'a function body');
  } else if (word === 'dcl_function_table') {
    opcode = 0x91;
    c.expect(' ft');
    num(x, 'a function table');
    const bodies = numbered(c, 'fb', 'a function body');
    x.w.push(bodies.length, ...bodies);
  } else if (word === 'dcl_interface' || word === 'dcl_interface_dynamicindexed') {
    opcode = 0x92;
    if (word !== 'dcl_interface') token = 1 << 11;
    c.expect(' fp');
    num(x, 'an interface');
    c.expect('[');
    const arraySize = c.count('an array size', 0xffff);
    c.expect('][');
    num(x, 'a call-site count');
    c.expect(']');
    const tables = numbered(c, 'ft', 'a function table');
    if (tables.length > 0xffff) throw c.fail('E906_ASM_LITERAL', 'an interface lists at most 65535 tables');
    x.w.push(((arraySize << 16) | tables.length) >>> 0, ...tables);
  } else if (word === 'dcl_input_control_point_count' || word === 'dcl_output_control_point_count') {
    opcode = BY_NAME.get(word)!;
    sp();
    token = c.count('a control point count', 63) << 11;
  } else if (word === 'dcl_tessellator_domain') {
    opcode = 0x95;
    sp();
    token = named(c, DOMAINS, 'tessellator domain') << 11;
  } else if (word === 'dcl_tessellator_partitioning') {
    opcode = 0x96;
    sp();
    token = named(c, PARTITIONINGS, 'tessellator partitioning') << 11;
  } else if (word === 'dcl_tessellator_output_primitive') {
    opcode = 0x97;
    sp();
    token = named(c, OUTPUTS, 'tessellator output primitive') << 11;
  } else if (word === 'dcl_hs_max_tessfactor') {
    opcode = 0x98;
    c.expect(' l(');
    const at = c.i;
    x.w.push(laneBits(c.word(/[^)]/), c, at));
    c.expect(')');
  } else if (
    word === 'dcl_hs_fork_phase_instance_count' ||
    word === 'dcl_hs_join_phase_instance_count' ||
    word === 'dcl_gsinstances'
  ) {
    opcode = BY_NAME.get(word)!;
    steps(x, '_n');
  } else if (word === 'dcl_thread_group') {
    opcode = 0x9b;
    steps(x, '_n,n,n', 'a thread count', 'a thread count', 'a thread count');
  } else if ((r = rest('dcl_uav_typed_')) !== undefined) {
    opcode = 0x9c;
    const m = /^([a-z0-9]+?)((?:_glc|_rov)*)$/.exec(r);
    const dim = m ? DIMENSIONS.get(m[1]!) : undefined;
    if (m === null || dim === undefined)
      throw c.fail('E902_ASM_MNEMONIC', `no UAV dimension in ${JSON.stringify(word)}`, start);
    token = (dim << 11) | uavFlags(m[2]!, c, start, false);
    typedBinding(x);
  } else if ((r = rest('dcl_uav_raw')) !== undefined) {
    opcode = 0x9d;
    token = uavFlags(r, c, start, false);
    steps(x, '_bS');
  } else if ((r = rest('dcl_uav_structured')) !== undefined) {
    opcode = 0x9e;
    token = uavFlags(r, c, start, true);
    steps(x, '_b,nS', 'a stride');
  } else if (word === 'dcl_tgsm_raw') {
    opcode = 0x9f;
    steps(x, '_o,n', 'a byte count');
  } else if (word === 'dcl_tgsm_structured') {
    opcode = 0xa0;
    steps(x, '_o,n,n', 'a stride', 'a structure count');
  } else if (word === 'hs_decls') {
    opcode = 0x71;
  } else throw c.fail('E902_ASM_MNEMONIC', `unknown declaration ${JSON.stringify(word)}`, start);
  // dcl_outputtopology and dcl_inputprimitive are printed with a trailing space, hs_decls too.
  c.end();
  finish(c, opcode | token, 0, x.w, start);
  for (const v of x.w) out.push(v);
  return true;
}

/** ` = {fb0, fb3}`: the numbers of a braced list of `prefix`-named items. */
function numbered(c: Cursor, prefix: string, what: string): number[] {
  c.expect(' = {');
  const out: number[] = [];
  while (c.eat(prefix)) {
    out.push(c.count(what));
    if (!c.eat(', ')) break;
  }
  c.expect('}');
  return out;
}

function systemValue(c: Cursor): number {
  const at = c.i;
  const n = c.word(/[A-Za-z0-9_]/);
  const v = SYSTEM.get(n) ?? (/^sv[0-9]+$/.test(n) ? Number(n.slice(2)) : undefined);
  if (v === undefined) throw c.fail('E901_ASM_SYNTAX', `no system value ${JSON.stringify(n)}`, at);
  return v;
}
