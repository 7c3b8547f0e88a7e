// Printing a Shader Model 4/5 instruction (not a declaration) as D3DDisassemble does: the
// mnemonic with its suffixes (_sat, _nz/_z, sync flags, _aoffimmi(u,v,w), _indexable(dim),
// return types, _uint / _rcpFloat), then the operands with their literal kinds and
// minimum-precision notes. The mnemonic is always followed by a space, operands or not.

import type { Instruction } from '../sm4/types.js';
import { OPCODES } from '../sm4/opcodes.js';
import { OPERAND_TYPES, RESOURCE_DIMENSIONS } from './names.js';
import { returnTypes } from './declaration.js';
import { plainOperandText, precisionName, printOperand, type OperandContext } from './operand.js';

const OP_DISCARD = 0x0d;
/** Opcodes whose token bit 18 chooses _nz (set) or _z. */
const CONDITIONAL: ReadonlySet<number> = new Set([0x03, 0x05, 0x08, 0x0d, 0x1f, 0x3f]);

/** The class a precision applies to: F float, I integer, D double, * none; ? untyped at def32. */
function precisionClass(kind: string | undefined, precision: string): string {
  if (kind === 'f') return 'F';
  if (kind === 'i' || kind === 'u') return 'I';
  if (kind === 'd') return 'D';
  if (kind === '*') return '*';
  if (precision === '') return '?';
  return precision.endsWith('f') ? 'F' : 'I';
}

/** Comparisons: their destination is a mask, never converted from the sources' precision. */
const COMPARISONS: ReadonlySet<number> = new Set([
  0x18, 0x1d, 0x20, 0x21, 0x22, 0x27, 0x31, 0x39, 0x4f, 0x50, 0xc3, 0xc4, 0xc5, 0xc6,
]);

/** The condition of movc / dmovc (operand 1) and swapc (operand 2). */
function isSelector(opcode: number, i: number): boolean {
  return ((opcode === 0x37 || opcode === 0xc8) && i === 1) || (opcode === 0x8e && i === 2);
}

/** The shift amount of ishl, ishr, ushr (operand 2). */
function isShiftAmount(opcode: number, i: number): boolean {
  return i === 2 && (opcode === 0x29 || opcode === 0x2a || opcode === 0x55);
}

const signed4 = (v: number): number => (v & 8 ? v - 16 : v);

/** Mnemonics of instructions without extended tokens, by opcode and control bits. */
const MNEMONICS = new Map<number, string>();

/** Per opcode, the control bits last seen and their mnemonic: most instructions repeat their opcode's last form, found without hashing. */
const LAST_KEY = new Int32Array(0x800).fill(-1);
const LAST_TEXT: string[] = new Array<string>(0x800).fill('');
/** The same mnemonics followed by the space before the operands (made once per form seen, not per line). */
const LAST_SPACED: string[] = new Array<string>(0x800).fill('');

export function mnemonic(ins: Instruction): string {
  if (ins.extended.length !== 0) return buildMnemonic(ins);
  const key = ins.token & 0x00ffffff;
  const op = key & 0x7ff;
  if (LAST_KEY[op] !== key) remember(ins, key, op);
  return LAST_TEXT[op]!;
}

/** The mnemonic and a space. */
function spacedMnemonic(ins: Instruction): string {
  if (ins.extended.length !== 0) return `${buildMnemonic(ins)} `;
  const key = ins.token & 0x00ffffff;
  const op = key & 0x7ff;
  if (LAST_KEY[op] !== key) remember(ins, key, op);
  return LAST_SPACED[op]!;
}

function remember(ins: Instruction, key: number, op: number): void {
  let m = MNEMONICS.get(key);
  if (m === undefined) MNEMONICS.set(key, (m = buildMnemonic(ins)));
  LAST_KEY[op] = key;
  LAST_TEXT[op] = m;
  LAST_SPACED[op] = `${m} `;
}

function buildMnemonic(ins: Instruction): string {
  const info = OPCODES[ins.opcode]!;
  const t = ins.token;
  let name = info.name;
  if (CONDITIONAL.has(ins.opcode)) name += t & (1 << 18) ? '_nz' : '_z';
  else if (t & (1 << 13) && ins.opcode !== 0xbe) name += '_sat';
  if (ins.opcode === 0xbe) {
    if (t & (1 << 14)) name += '_uglobal';
    if (t & (1 << 13)) name += '_ugroup';
    if (t & (1 << 12)) name += '_g';
    if (t & (1 << 11)) name += '_t';
  }
  let aoff = '';
  let dim = '';
  let ret = '';
  for (const e of ins.extended) {
    if (e.type === 1) {
      const u = signed4((e.token >>> 9) & 0xf);
      const v = signed4((e.token >>> 13) & 0xf);
      const w = signed4((e.token >>> 17) & 0xf);
      aoff = `(${u},${v},${w})`;
    } else if (e.type === 2) {
      const d = (e.token >>> 6) & 0x1f;
      const stride = (e.token >>> 11) & 0xfff;
      dim = d === 12 ? `(structured_buffer, stride=${stride})` : `(${RESOURCE_DIMENSIONS[d] ?? d})`;
    } else if (e.type === 3) {
      ret = returnTypes(e.token >>> 6);
    }
  }
  if (aoff) name += '_aoffimmi';
  if (dim) name += '_indexable';
  // The precise mask sits between the suffix names and their parenthesised arguments.
  const precise = (t >>> 19) & 0xf;
  if (precise) {
    let lanes = '';
    for (let i = 0; i < 4; i++) if (precise & (1 << i)) lanes += 'xyzw'[i];
    name += precise === 0xf ? ' [precise]' : ` [precise(${lanes})]`;
  }
  name += aoff + dim + ret;
  if (ins.opcode === 0x3d) {
    const rt = (t >>> 11) & 3;
    if (rt === 1) name += '_rcpFloat';
    else if (rt === 2) name += '_uint';
  } else if (ins.opcode === 0x6f && (t >>> 11) & 1) name += '_uint';
  return name;
}

/** The instruction's text: mnemonic, a space, operands joined by ', '. */
/** Opcodes that access a resource, sampler, UAV, memory or stream (a `*` slot in their format). */
const ACCESS: readonly boolean[] = OPCODES.map((o) => o !== undefined && (o.dst + o.src).includes('*'));

export function printInstruction(ins: Instruction, ctx: OperandContext): string {
  const ops = ins.operands;
  const kinds = OPERAND_TYPES[ins.opcode] ?? '';
  // sync is the one operand-less instruction printed without a trailing space.
  if (ins.opcode === 0xbe) {
    const m = mnemonic(ins);
    return ctx.era?.aoffimmiSuffix === false ? m.replace('_aoffimmi', '') : m;
  }
  let head = spacedMnemonic(ins);
  // 9.29 printed an immediate offset without its suffix name: ldms(1,1,0)
  if (ctx.era?.aoffimmiSuffix === false) head = head.replace('_aoffimmi', '');
  // 9.29 printed discard without its test: `discard r0.x` for discard_nz and discard_z alike
  if (ins.opcode === OP_DISCARD && ctx.era?.discardTest === false) head = 'discard ';
  let s = head;
  // One pass over the operands: one with a minimum precision sends the whole list to
  // precisionOperands (notes on every operand), what was printed so far set aside.
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    if (op.minPrecision !== 0) {
      s = head + precisionOperands(ins, ctx, kinds);
      break;
    }
    const plain = op.type === 4 || op.type === 5 ? undefined : plainOperandText(op, ctx, i > 0);
    if (plain !== undefined) s += plain;
    else {
      if (i) s += ', ';
      s += printOperand(op, ctx, kinds[i] ?? 'f');
    }
  }
  // fcall: the interface operand, then the call site's word in brackets.
  if (ins.opcode === 0x78) s += `[${ins.values[0] ?? 0}]`;
  return s;
}

/** Operands with minimum-precision notes. */
function precisionOperands(ins: Instruction, ctx: OperandContext, kinds: string): string {
  const info = OPCODES[ins.opcode]!;
  const ops = ins.operands;
  const nd = info.dst.length;
  const dstPrec = nd > 0 && ops[0] ? precisionName(ops[0]) : '';
  const dstClass = nd > 0 ? (COMPARISONS.has(ins.opcode) ? 'B' : precisionClass(kinds[0], dstPrec)) : '';
  // Resource accesses note their sources' own precision only (addresses are not converted).
  const access = ACCESS[ins.opcode] === true;
  const parts: string[] = [];
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    const p = precisionName(op);
    let note = p;
    // A source of the destination's class (float or integer) whose precision differs prints the
    // conversion: {def32 as min16f}, {min16f as def32}, {min16i as min16u}. Registers with no data
    // and shift amounts print their own precision only.
    if (i >= nd && nd > 0 && p !== dstPrec && !access && !isShiftAmount(ins.opcode, i)) {
      const cls = isSelector(ins.opcode, i) ? 'I' : precisionClass(kinds[i], p);
      if (cls !== '*' && (cls === dstClass || cls === '?' || dstClass === '?')) {
        if (p === '') note = `def32 as ${dstPrec}`;
        else if (dstPrec === '') note = `${p} as def32`;
        else note = `${p} as ${dstPrec}`;
      }
    }
    parts.push(printOperand(op, ctx, kinds[i] ?? 'f', note));
  }
  return parts.join(', ');
}
