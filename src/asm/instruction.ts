// Instructions as src/disasm/instruction.ts prints them, read back: the mnemonic is the opcode
// table's base name (sm4/opcodes.ts) followed by the suffixes the printer appends, in its order:
// _nz/_z (conditionals) or _sat, sync's _uglobal/_ugroup/_g/_t, _aoffimmi, _indexable, the precise
// mask ` [precise(xy)]`, then the parenthesised immediate offsets (u,v,w), resource dimension and
// return types (the extended opcode tokens, written in the order 1, 2, 3 as fxc writes them), and
// resinfo's _uint/_rcpFloat, sampleinfo's _uint. The operands follow the opcode's format (d
// destinations, s sources, * resource slots).

import { OPCODES, type OpcodeInfo } from '../sm4/opcodes.js';
import { OPERAND_TYPES, RESOURCE_DIMENSIONS, RETURN_TYPES } from '../disasm/names.js';
import type { Cursor } from './text.js';
import { encodeOperand, readOperand, type OperandText, type SlotKind } from './operand.js';

/** Base mnemonics to opcode rows (declarations included). */
export const BY_NAME = new Map<string, OpcodeInfo>();
for (const o of OPCODES) if (o !== undefined) BY_NAME.set(o.name, o);

/** Opcodes whose token bit 18 chooses _nz (set) or _z. */
const CONDITIONAL: ReadonlySet<number> = new Set([0x03, 0x05, 0x08, 0x0d, 0x1f, 0x3f]);

export const DIMENSIONS = new Map<string, number>(RESOURCE_DIMENSIONS.map((n, i) => [n, i]));
/** Return types by name; `<unused>` is 9 (D3D10_SB_RETURN_TYPE_UNUSED, which fxc writes after `<continued>`), not the invalid 0. */
const RETURNS = new Map<string, number>();
RETURN_TYPES.forEach((n, i) => RETURNS.set(n, i));

/** `(float,float,float,float)` at the cursor: the four 4-bit return types. */
export function readReturnTypes(c: Cursor): number {
  c.expect('(');
  let word = 0;
  for (let i = 0; i < 4; i++) {
    if (i) c.expect(',');
    const at = c.i;
    const n = c.word(/[a-z<>]/);
    const t = RETURNS.get(n);
    if (t === undefined) throw c.fail('E902_ASM_MNEMONIC', `no resource return type ${JSON.stringify(n)}`, at);
    word |= t << (4 * i);
  }
  c.expect(')');
  return word >>> 0;
}

const SUFFIX = /^(_nz|_z|_sat)?(_uglobal)?(_ugroup)?(_g)?(_t)?(_aoffimmi)?(_indexable)?$/;

interface Mnemonic {
  readonly info: OpcodeInfo;
  token: number;
  readonly extended: number[];
}

/** The mnemonic word at the cursor with its suffixes, precise mask and parenthesised arguments. */
function readMnemonic(c: Cursor): Mnemonic {
  const at = c.i;
  let word = c.word(/[A-Za-z0-9_]/);
  // resinfo_uint, sampleinfo_uint: the return type's suffix ends the word when no parentheses follow.
  const typed = /^(resinfo|sampleinfo)(_indexable)?(_uint|_rcpFloat)$/.exec(word);
  if (typed && c.peek() !== '(') {
    word = word.slice(0, -typed[3]!.length);
    c.i -= typed[3]!.length;
  }
  let info: OpcodeInfo | undefined;
  let m: RegExpExecArray | null = null;
  // Most mnemonics are the base name as it is; the others end in suffixes (_sat, _indexable, ...).
  const exact = BY_NAME.get(word);
  if (exact !== undefined && !exact.decl) {
    info = exact;
    m = SUFFIX.exec('');
  }
  for (let n = word.length - 1; n > 0 && info === undefined; n--) {
    const o = BY_NAME.get(word.slice(0, n));
    if (o === undefined || o.decl) continue;
    m = SUFFIX.exec(word.slice(n));
    if (m) info = o;
  }
  if (info === undefined || m === null)
    throw c.fail('E902_ASM_MNEMONIC', `unknown mnemonic ${JSON.stringify(word)}`, at);
  let token = info.opcode;
  const [, test, uglobal, ugroup, g, t, aoffimmi, indexable] = m;
  const bad = (what: string): never => {
    throw c.fail('E902_ASM_MNEMONIC', `${info.name} takes no ${what}`, at);
  };
  if (test !== undefined) {
    if (CONDITIONAL.has(info.opcode) !== (test !== '_sat')) bad(test);
    if (test === '_nz') token |= 1 << 18;
    if (test === '_sat') token |= 1 << 13;
  } else if (CONDITIONAL.has(info.opcode)) throw c.fail('E902_ASM_MNEMONIC', `${info.name} needs _z or _nz`, at);
  if ((uglobal || ugroup || g || t) && info.opcode !== 0xbe) bad('synchronisation flags');
  if (uglobal) token |= 1 << 14;
  if (ugroup) token |= 1 << 13;
  if (g) token |= 1 << 12;
  if (t) token |= 1 << 11;
  if (c.startsWith(' [precise')) {
    c.i += ' [precise'.length;
    let mask = 0xf;
    if (c.eat('(')) {
      mask = 0;
      const lanes = c.word(/[xyzw]/);
      for (const ch of lanes) mask |= 1 << 'xyzw'.indexOf(ch);
      if (mask === 0) throw c.fail('E905_ASM_MASK', 'a precise mask names one to four lanes');
      c.expect(')');
    }
    c.expect(']');
    token |= mask << 19;
  }
  let offsets: number | undefined;
  let dimension: number | undefined;
  let returns: number | undefined;
  while (c.peek() === '(') {
    const p = c.i;
    if (/^\(-?[0-9]/.test(c.s.slice(c.i, c.i + 3))) {
      c.i++;
      const uvw: number[] = [];
      for (let i = 0; i < 3; i++) {
        if (i) c.expect(',');
        const q = c.i;
        const v = Number(c.word(/[-0-9]/));
        if (!Number.isInteger(v) || v < -8 || v > 7)
          throw c.fail('E906_ASM_LITERAL', 'an immediate offset is an integer from -8 to 7', q);
        uvw.push(v & 0xf);
      }
      c.expect(')');
      offsets = 1 | (uvw[0]! << 9) | (uvw[1]! << 13) | (uvw[2]! << 17);
    } else if (c.startsWith('(structured_buffer, stride=')) {
      c.i += '(structured_buffer, stride='.length;
      const stride = c.count('a stride', 0xfff);
      c.expect(')');
      dimension = 2 | (12 << 6) | (stride << 11);
    } else {
      const save = c.i;
      c.i++;
      const d = DIMENSIONS.get(c.word(/[a-z0-9_]/));
      if (d !== undefined && c.eat(')')) dimension = 2 | (d << 6);
      else {
        c.i = save;
        returns = 3 | (readReturnTypes(c) << 6);
      }
    }
    if (c.i === p) break;
  }
  if ((offsets !== undefined) !== (aoffimmi !== undefined) && aoffimmi !== undefined) bad('_aoffimmi without offsets');
  if ((dimension !== undefined) !== (indexable !== undefined)) {
    throw c.fail('E902_ASM_MNEMONIC', '_indexable and a resource dimension go together', at);
  }
  if (info.opcode === 0x3d) {
    if (c.eat('_rcpFloat')) token |= 1 << 11;
    else if (c.eat('_uint')) token |= 2 << 11;
  } else if (info.opcode === 0x6f && c.eat('_uint')) token |= 1 << 11;
  const extended: number[] = [];
  for (const e of [offsets, dimension, returns]) if (e !== undefined) extended.push(e);
  return { info, token, extended };
}

/** Operand slots of a format: destinations are masks, sources and resource slots read as sources. */
function slotOf(info: OpcodeInfo, i: number): SlotKind {
  return i < info.dst.length ? 'mask' : 'source';
}

/** One instruction statement (not a declaration): its words. */
export function assembleInstruction(c: Cursor, major: number, out: number[]): void {
  const start = c.i;
  const mn = readMnemonic(c);
  const info = mn.info;
  const ops: OperandText[] = [];
  c.ws();
  // How the printer formats each operand's literals (names.ts): `x` lanes are untyped.
  const kinds = OPERAND_TYPES[info.opcode] ?? '';
  while (!c.done) {
    ops.push(readOperand(c, major, kinds[ops.length] === 'x'));
    c.ws();
    if (c.done) break;
    c.expect(',', '"," between operands');
    c.ws();
  }
  let values: number[] = [];
  if (info.opcode === 0x78) {
    // fcall fp0[0][N]: the last bracket is the call site's word, not an index.
    const fp = ops[0];
    const last = fp?.indices.pop();
    if (fp === undefined || last === undefined || last.rel !== undefined)
      throw c.fail('E904_ASM_OPERAND_COUNT', 'fcall takes an interface and its call site [N]', start);
    values = [last.imm];
  }
  const format = info.layout === undefined ? info.dst + info.src : 'o'.repeat(info.layout.split('o').length - 1);
  if (ops.length !== format.length)
    throw c.fail(
      'E904_ASM_OPERAND_COUNT',
      `${info.name} takes ${format.length} operand${format.length === 1 ? '' : 's'}, not ${ops.length}`,
      ops[format.length]?.at ?? start,
    );
  const words: number[] = [0, ...mn.extended];
  for (const v of values) words.push(v >>> 0);
  ops.forEach((op, i) => {
    const letter = format[i]!;
    if (letter === '*' && op.form !== 'reg')
      throw c.fail(
        'E904_ASM_OPERAND_COUNT',
        `${info.name}'s operand ${i + 1} is a resource slot, not a literal`,
        op.at,
      );
    if (letter === 'd' && op.form !== 'reg')
      throw c.fail('E904_ASM_OPERAND_COUNT', `${info.name}'s destination cannot be a literal`, op.at);
    encodeOperand(c, op, slotOf(info, i), words);
  });
  // fxc writes samplepos and the sample_*_s forms with or without one word after the operands
  // (decode.ts's PADDED_OPCODES); the listing does not show it: written without (test/known/asm-*.txt).
  finish(c, mn.token, mn.extended.length, words, start);
  for (let i = 0; i < words.length; i++) out.push(words[i]!);
}

/** Fills the opcode token (length, extended bit) at words[0]; an instruction is at most 127 words. */
export function finish(c: Cursor, token: number, extended: number, words: number[], at: number): void {
  if (words.length > 127)
    throw c.fail('E904_ASM_OPERAND_COUNT', `the instruction is ${words.length} words, over 127`, at);
  words[0] = (token | (words.length << 24) | (extended ? 0x80000000 : 0)) >>> 0;
  // Each extended opcode token but the last says another follows.
  for (let i = 1; i < extended; i++) words[i] = (words[i]! | 0x80000000) >>> 0;
}
