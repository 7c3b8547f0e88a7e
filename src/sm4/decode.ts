// Strict decoder of Shader Model 4/5/5.1 token streams (containers.md, "Shader Model 4 and 5 token
// streams"): walks the program by length fields to its exact end, reads every operand with its
// extended tokens, indices and immediates, and checks what the spec proves of every real program:
// each instruction has its opcode's operand count, the `*` slots hold exactly the registers with
// no data, destinations are selected by write masks (one-lane depth outputs excepted). A violation
// is an IridiaError (E3xx) naming the instruction index and word offset.

import { IridiaError, hex, type ErrorCode, type ErrorLocation } from '../errors.js';
import { OPCODES, OPCODE_CUSTOMDATA, SLOT_REGISTER_TYPES, type OpcodeInfo } from './opcodes.js';
import type {
  CustomData,
  ExtendedOpcode,
  Instruction,
  Operand,
  OperandIndex,
  Program,
  ProgramVersion,
} from './types.js';

/** Shared empty lists and the identity swizzle: most operands and instructions have no extras. */
const NONE: readonly never[] = Object.freeze([]);
const IDENTITY: readonly [number, number, number, number] = Object.freeze([0, 1, 2, 3] as const);
const SWIZZLES: (readonly [number, number, number, number])[] = [];
for (let i = 0; i < 256; i++)
  SWIZZLES.push(Object.freeze([i & 3, (i >>> 2) & 3, (i >>> 4) & 3, (i >>> 6) & 3] as const));

/** Shared immediate indices 0..1023, and one-index lists of them (operands are read-only). */
const SMALL_INDEX_COUNT = 1024;
const SMALL_INDICES: readonly OperandIndex[] = Array.from({ length: SMALL_INDEX_COUNT }, (_, imm) =>
  Object.freeze({ rep: 0, imm, immHi: 0 }),
);
const SMALL_INDEX_LISTS: readonly (readonly OperandIndex[])[] = SMALL_INDICES.map((x) => Object.freeze([x]));

/**
 * Each ordinary opcode's operand letters (`dst + src`), joined once here rather than per
 * instruction; '' where the opcode has a layout or no row.
 */
const FORMATS: readonly string[] = OPCODES.map((info) =>
  info === undefined || info.layout !== undefined ? '' : info.dst + info.src,
);

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Program types; 0xFFF0 is a library function (a LIBF part of an fxc lib_* build), listed as lib_M_N. */
const STAGES: Readonly<Record<number, string>> = {
  0: 'ps',
  1: 'vs',
  2: 'gs',
  3: 'hs',
  4: 'ds',
  5: 'cs',
  0xfff0: 'lib',
};

/** The slot register types (SLOT_REGISTER_TYPES) as a table over the 8-bit type field: no hashing per operand. */
const IS_SLOT: readonly boolean[] = Array.from({ length: 256 }, (_, t) => SLOT_REGISTER_TYPES.has(t));

/** Highest defined operand type (D3D11_SB_OPERAND_TYPE_INNER_COVERAGE). */
const MAX_OPERAND_TYPE = 42;
/** One-lane output registers a destination may name without a write mask (oDepth, oDepthGE/LE, oMask, stencil ref). */
const ONE_LANE_OUTPUTS: ReadonlySet<number> = new Set([12, 15, 38, 39, 41]);

/** Opcodes fxc writes with or without one word after their operands (samplepos, sample_l_s .. sample_c_cl_s; src/asm/padding.ts). */
export const PADDED_OPCODES: ReadonlySet<number> = new Set([0x6e, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9]);

/** The read position inside one instruction (one cursor per program, reset per instruction). */
class Cursor {
  constructor(
    readonly words: Uint32Array,
    readonly part: string,
    public pos: number,
    public end: number,
    public index: number,
    public start: number,
  ) {}
  fail(code: ErrorCode, reason: string): IridiaError {
    return new IridiaError(code, reason, {
      part: this.part,
      instruction: this.index,
      word: this.start,
      offset: this.pos * 4,
    });
  }
  next(what: string): number {
    if (this.pos >= this.end)
      throw this.fail(
        'E301_TOKENS_TRUNCATED',
        `${what} at word ${this.pos} is past the instruction's end (word ${this.end})`,
      );
    return this.words[this.pos++]!;
  }
}

/** Decodes a SHDR/SHEX part's payload. `part` names the part in errors. */
export function decodeProgram(data: Uint8Array, part = 'SHEX'): Program {
  if (data.byteLength < 8)
    throw new IridiaError(
      'E301_TOKENS_TRUNCATED',
      `the program is ${data.byteLength} bytes, too short for its version and length words`,
      {
        part,
        offset: 0,
      },
    );
  const count = data.byteLength >>> 2;
  let words: Uint32Array;
  if (LITTLE_ENDIAN && data.byteOffset % 4 === 0) {
    // A view of the part's words, no copy (the container's bytes are not written to).
    words = new Uint32Array(data.buffer, data.byteOffset, count);
  } else {
    words = new Uint32Array(count);
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    for (let i = 0; i < count; i++) words[i] = view.getUint32(i * 4, true);
  }
  const versionToken = words[0]!;
  const type = versionToken >>> 16;
  const stage = STAGES[type];
  if (stage === undefined)
    throw new IridiaError('E309_BAD_VERSION', `the version token ${hex(versionToken)} names program type ${type}`, {
      part,
      offset: 0,
    });
  const version: ProgramVersion = { type, stage, major: (versionToken >>> 4) & 0xf, minor: versionToken & 0xf };
  const lengthWords = words[1]!;
  if (lengthWords < 2 || lengthWords > count)
    throw new IridiaError(
      'E301_TOKENS_TRUNCATED',
      `the length word says ${lengthWords} words but the part holds ${count}`,
      { part, offset: 4 },
    );
  const is51 = version.major > 5 || (version.major === 5 && version.minor >= 1);
  const instructions: Instruction[] = [];
  const cursor = new Cursor(words, part, 2, 2, 0, 2);
  let pos = 2;
  while (pos < lengthWords) {
    instructions.push(decodeInstruction(cursor, pos, lengthWords, instructions.length, is51));
    pos += instructions[instructions.length - 1]!.length;
  }
  return { version, words, lengthWords, instructions };
}

/** The location of the instruction at `start` (built only when an error is thrown). */
function at(c: Cursor, index: number, start: number): ErrorLocation {
  return { part: c.part, instruction: index, word: start, offset: start * 4 };
}

function decodeInstruction(c: Cursor, start: number, programEnd: number, index: number, is51: boolean): Instruction {
  const words = c.words;
  const token = words[start]!;
  const opcode = token & 0x7ff;

  if (opcode === OPCODE_CUSTOMDATA) {
    if (start + 2 > programEnd)
      throw new IridiaError(
        'E307_CUSTOMDATA',
        `customdata's length word is past the program's end (word ${programEnd})`,
        at(c, index, start),
      );
    const length = words[start + 1]!;
    if (length < 2 || length > programEnd - start)
      throw new IridiaError(
        'E307_CUSTOMDATA',
        `customdata says ${length} words but ${programEnd - start} remain in the program`,
        at(c, index, start),
      );
    const customData: CustomData = { dataClass: token >>> 11, words: words.subarray(start + 2, start + length) };
    return { index, word: start, length, opcode, token, extended: NONE, operands: NONE, values: NONE, customData };
  }
  const info = OPCODES[opcode];
  const length = (token >>> 24) & 0x7f;
  if (length === 0)
    throw new IridiaError('E302_INSTRUCTION_LENGTH', `opcode ${hex(opcode)} has length 0`, at(c, index, start));
  if (length > programEnd - start)
    throw new IridiaError(
      'E302_INSTRUCTION_LENGTH',
      `opcode ${hex(opcode)} says ${length} words but ${programEnd - start} remain in the program`,
      at(c, index, start),
    );
  if (info === undefined)
    throw new IridiaError('E303_UNKNOWN_OPCODE', `unknown opcode ${hex(opcode)}`, at(c, index, start));
  c.pos = start + 1;
  c.end = start + length;
  c.index = index;
  c.start = start;
  let extended: ExtendedOpcode[] | readonly never[] = NONE;
  let ext = token >>> 31;
  while (ext) {
    const e = c.next('an extended opcode token');
    if (extended === NONE) extended = [];
    (extended as ExtendedOpcode[]).push({ token: e, type: e & 0x3f });
    ext = e >>> 31;
  }
  let operands: readonly Operand[];
  let values: number[] | readonly never[] = NONE;
  if (info.layout === undefined) operands = readOperands(c, info, FORMATS[opcode]!);
  else {
    const list: Operand[] = [];
    const words: number[] = [];
    readLayout(c, info, is51, list, words);
    operands = list;
    values = words;
  }
  // fxc writes these opcodes one word longer than their operands (samplepos and the sample_*_s
  // forms; the word is 0, or 0x2000 after sample_d_cl_s): kept as a value so the decode stays lossless.
  if (c.pos === c.end - 1 && PADDED_OPCODES.has(opcode)) values = [c.next('padding')];
  if (c.pos !== c.end)
    throw c.fail(
      'E304_OPERAND_COUNT',
      `${info.name} ends at word ${c.pos} but its length says word ${c.end} (${c.end - c.pos} words left over)`,
    );
  return { index, word: start, length, opcode, token, extended, operands, values: values.length ? values : NONE };
}

/**
 * Reads the operands of an ordinary instruction into a list of exactly their number: an array
 * literal's elements are evaluated in order, and pushing onto `[]` would allocate room for 17.
 * Most formats have one to five operands; those with none share the frozen empty list.
 */
function readOperands(c: Cursor, info: OpcodeInfo, format: string): readonly Operand[] {
  switch (format.length) {
    case 0:
      return NONE;
    case 1:
      return [slot(c, info, format, 0)];
    case 2:
      return [slot(c, info, format, 0), slot(c, info, format, 1)];
    case 3:
      return [slot(c, info, format, 0), slot(c, info, format, 1), slot(c, info, format, 2)];
    case 4:
      return [slot(c, info, format, 0), slot(c, info, format, 1), slot(c, info, format, 2), slot(c, info, format, 3)];
    case 5:
      return [
        slot(c, info, format, 0),
        slot(c, info, format, 1),
        slot(c, info, format, 2),
        slot(c, info, format, 3),
        slot(c, info, format, 4),
      ];
    default: {
      const list: Operand[] = [];
      for (let i = 0; i < format.length; i++) list.push(slot(c, info, format, i));
      return list;
    }
  }
}

/** Reads operand `i` of an ordinary instruction and checks it against its format letter. */
function slot(c: Cursor, info: OpcodeInfo, format: string, i: number): Operand {
  if (c.pos >= c.end)
    throw c.fail('E304_OPERAND_COUNT', `${info.name} has ${i} operands but its format needs ${format.length}`);
  const op = readOperand(c);
  checkSlot(c, info, format[i]!, op, i);
  return op;
}

function readLayout(c: Cursor, info: OpcodeInfo, is51: boolean, operands: Operand[], values: number[]): void {
  for (const item of info.layout!) {
    switch (item) {
      case 'o':
        operands.push(readOperand(c));
        break;
      case 'w':
        values.push(c.next(`${info.name}'s word`));
        break;
      case 'S':
      case 'C':
        if (is51) values.push(c.next(`${info.name}'s ${item === 'S' ? 'register space' : 'size'} word`));
        break;
      case 'n': {
        const n = c.next(`${info.name}'s count`);
        if (n > c.end - c.pos)
          throw c.fail('E310_BAD_DECLARATION', `${info.name} lists ${n} words but ${c.end - c.pos} remain`);
        values.push(n);
        for (let i = 0; i < n; i++) values.push(c.next(`${info.name}'s list`));
        break;
      }
      case '+':
        while (c.pos < c.end) values.push(c.next(`${info.name}'s list`));
        break;
      default:
        throw new Error(`bad layout item ${item}`);
    }
  }
}

function checkSlot(c: Cursor, info: OpcodeInfo, letter: string, op: Operand, i: number): void {
  const isSlot = IS_SLOT[op.type] === true;
  if (letter === '*') {
    if (!isSlot)
      throw c.fail(
        'E308_OPERAND_SLOT',
        `${info.name}'s operand ${i} must be a resource, sampler, UAV, memory or stream register, not type ${op.type}`,
      );
  } else if (isSlot) {
    throw c.fail(
      'E308_OPERAND_SLOT',
      `${info.name}'s operand ${i} holds a register of type ${op.type} where a value is expected`,
    );
  } else if (letter === 'd' && op.type !== 13) {
    // A destination selects its lanes by a write mask, except the one-lane registers.
    const oneLane = op.numComponents === 1 && ONE_LANE_OUTPUTS.has(op.type);
    if (!oneLane && !(op.numComponents === 2 && op.selectionMode === 0))
      throw c.fail('E308_OPERAND_SLOT', `${info.name}'s destination ${i} is not selected by a write mask`);
  }
}

/** Reads one operand (token, extended tokens, indices, immediates). */
function readOperand(c: Cursor): Operand {
  const word = c.pos;
  const token = c.next('an operand token');
  const numComponents = token & 3;
  const selectionMode = numComponents === 2 ? (token >>> 2) & 3 : 0;
  let mask = 0;
  let swizzle = IDENTITY;
  if (numComponents === 2) {
    if (selectionMode === 0) mask = (token >>> 4) & 0xf;
    else if (selectionMode === 1) swizzle = SWIZZLES[(token >>> 4) & 0xff]!;
    else if (selectionMode === 2) swizzle = SWIZZLES[((token >>> 4) & 3) * 0x55]!;
    else throw c.fail('E305_OPERAND_TYPE', `operand token ${hex(token)} has component selection mode 3`);
  } else if (numComponents === 3) throw c.fail('E305_OPERAND_TYPE', `operand token ${hex(token)} has N components`);
  const type = (token >>> 12) & 0xff;
  if (type > MAX_OPERAND_TYPE) throw c.fail('E305_OPERAND_TYPE', `unknown operand type ${type}`);
  const dims = (token >>> 20) & 3;
  let modifier = 0;
  let minPrecision = 0;
  let nonUniform = false;
  let extended: number[] | readonly never[] = NONE;
  let ext = token >>> 31;
  while (ext) {
    const e = c.next('an extended operand token');
    if (extended === NONE) extended = [];
    (extended as number[]).push(e);
    if ((e & 0x3f) === 1) {
      modifier = (e >>> 6) & 0xff;
      minPrecision = (e >>> 14) & 7;
      nonUniform = ((e >>> 17) & 1) === 1;
    }
    ext = e >>> 31;
  }
  let values: readonly number[] | undefined;
  if (type === 4 || type === 5) {
    // immediate32: one word per component; immediate64: a double (two words) per pair of lanes.
    // Lists of exactly their length (array literals evaluate their elements in order).
    if (numComponents === 2)
      values = [
        c.next('an immediate value'),
        c.next('an immediate value'),
        c.next('an immediate value'),
        c.next('an immediate value'),
      ];
    else if (numComponents === 0) values = NONE;
    else if (type === 4) values = [c.next('an immediate value')];
    else values = [c.next('an immediate value'), c.next('an immediate value')];
  }
  // The common case, one small immediate index (r3, o0, v1), shares a frozen list.
  if (dims === 1 && ((token >>> 22) & 7) === 0 && c.pos < c.end && c.words[c.pos]! < SMALL_INDEX_COUNT) {
    const n = c.next('an index');
    return operand(
      token,
      type,
      numComponents,
      selectionMode,
      mask,
      swizzle,
      modifier,
      minPrecision,
      nonUniform,
      extended,
      SMALL_INDEX_LISTS[n]!,
      word,
      values,
    );
  }
  // Exact-length lists of the indices, read in order (dims is 0 to 3).
  const indices: readonly OperandIndex[] =
    dims === 0
      ? NONE
      : dims === 1
        ? [readIndex(c, token, 0)]
        : dims === 2
          ? [readIndex(c, token, 0), readIndex(c, token, 1)]
          : [readIndex(c, token, 0), readIndex(c, token, 1), readIndex(c, token, 2)];
  return operand(
    token,
    type,
    numComponents,
    selectionMode,
    mask,
    swizzle,
    modifier,
    minPrecision,
    nonUniform,
    extended,
    indices,
    word,
    values,
  );
}

/** Reads index `d` of the operand whose token is `token`. */
function readIndex(c: Cursor, token: number, d: number): OperandIndex {
  const rep = (token >>> (22 + d * 3)) & 7;
  if (rep > 4) throw c.fail('E306_INDEX_REPRESENTATION', `operand index ${d} has representation ${rep}`);
  let imm = 0;
  let immHi = 0;
  if (rep === 0 || rep === 3) imm = c.next('an index');
  else if (rep === 1 || rep === 4) {
    immHi = c.next('an index');
    imm = c.next('an index');
  }
  if (rep >= 2) return { rep, imm, immHi, rel: readOperand(c) };
  return rep === 0 && imm < SMALL_INDEX_COUNT ? SMALL_INDICES[imm]! : { rep, imm, immHi };
}

/** Every operand is built here, so all share one object shape. */
function operand(
  token: number,
  type: number,
  numComponents: number,
  selectionMode: number,
  mask: number,
  swizzle: readonly [number, number, number, number],
  modifier: number,
  minPrecision: number,
  nonUniform: boolean,
  extended: readonly number[],
  indices: readonly OperandIndex[],
  word: number,
  values: readonly number[] | undefined,
): Operand {
  return {
    token,
    type,
    numComponents,
    selectionMode,
    mask,
    swizzle,
    modifier,
    minPrecision,
    nonUniform,
    extended,
    indices,
    word,
    values,
  };
}

/**
 * Reads `count` operands from `words` (used for the operands a shader-message customdata block
 * carries). `base` is the word offset of `words[0]` in the program, for error locations.
 */
export function decodeOperandList(words: Uint32Array, count: number, part: string, base = 0): Operand[] {
  const c = new Cursor(words, part, 0, words.length, -1, base);
  const out: Operand[] = [];
  for (let i = 0; i < count; i++) out.push(readOperand(c));
  return out;
}
