// A Shader Model 4/5/5.1 listing, as D3DDisassemble prints it under any flag word, read back into
// its token stream: the comment header and the footer are skipped (they are read from the other
// parts, not from the program), the 0x04 instruction numbers and 0x20 byte offsets are dropped,
// debug lines (`#line`, `// r0.x <- name` remarks, the initial variable locations) are skipped, and
// each statement after the version line becomes its declaration, instruction or customdata block.

import { OPCODE_CUSTOMDATA } from '../sm4/opcodes.js';
import { AsmError, Cursor, laneBits, statementOf } from './text.js';
import { assembleDeclaration } from './declaration.js';
import { assembleInstruction } from './instruction.js';
import { encodeOperand, readOperand } from './operand.js';

/** Program types by the version line's stage name (ps 0 .. cs 5). */
/** Program types of the version token; 0xFFF0 is a library function (one LIBF part of a lib_* build). */
const STAGES: Readonly<Record<string, number>> = { ps: 0, vs: 1, gs: 2, hs: 3, ds: 4, cs: 5, lib: 0xfff0 };

export interface AssembledProgram {
  readonly stage: string;
  readonly major: number;
  readonly minor: number;
  /** The token stream (version and length words included). */
  readonly words: Uint32Array;
  /** Listing line (1-based) of each instruction, in stream order (declarations and customdata included). */
  readonly lines: readonly number[];
}

/** A Direct3D 9 program a level-9 listing prints first (`lib_4_0_` before it in a level-9 library). */
const D3D9_VERSION = /^(?:lib_4_[01]_)?(ps|vs)_[1-3]_([0-9x]|sw)$/;
const VERSION = /^(ps|vs|gs|hs|ds|cs|lib)_([0-9]+)_([0-9]+)$/;
/** Shader-message ids (D3D11_SB_SHADER_MESSAGE_ID): printf and errorf. */
const MESSAGE_IDS: Readonly<Record<string, number>> = { printf: 0x00200102, errorf: 0x00200103 };
const UNESCAPES: Readonly<Record<string, string>> = { '\\': '\\', n: '\n', t: '\t', r: '\r' };

/** Reads a listing into its token stream. Throws AsmError (E9xx) at the first line it cannot read. */
export function assembleProgram(listing: string): AssembledProgram {
  const raw = listing.split('\n');
  let version: { stage: string; major: number; minor: number } | undefined;
  const words: number[] = [0, 0];
  const lines: number[] = [];
  let d3d9 = false;
  for (let n = 0; n < raw.length; n++) {
    const statement = statementOf(raw[n]!);
    if (statement === undefined) continue;
    const { text, base } = statement;
    let s = statement.s;
    if (version === undefined) {
      const m = VERSION.exec(s.trimEnd());
      // A level 9 container's listing prints its Direct3D 9 program (ps_2_0, vs_2_x ..) first: skipped.
      if (d3d9 || D3D9_VERSION.test(s.trimEnd())) {
        d3d9 = !(m && Number(m[2]) >= 4);
        if (d3d9) continue;
      }
      if (!m)
        throw new AsmError(
          'E907_ASM_PROGRAM',
          `expected the version line (ps_5_0, cs_4_1, ...), found ${JSON.stringify(s.slice(0, 20))}`,
          n + 1,
          base + 1,
          text,
        );
      version = { stage: m[1]!, major: Number(m[2]), minor: Number(m[3]) };
      if (version.major < 4 || version.major > 5 || version.minor > 1)
        throw new AsmError(
          'E907_ASM_PROGRAM',
          `Shader Model ${version.major}.${version.minor} is no SM4/5 token stream`,
          n + 1,
          base + 1,
          text,
        );
      words[0] = ((STAGES[version.stage]! << 16) | (version.major << 4) | version.minor) >>> 0;
      continue;
    }
    const first = n + 1;
    if (s.startsWith('dcl_immediateConstantBuffer')) {
      // Its rows continue on the following lines until the braces close.
      let depth = braces(s);
      while (depth > 0 && n + 1 < raw.length) {
        const more = raw[++n]!.replace(/\r$/, '');
        s += `\n${more}`;
        depth += braces(more);
      }
      lines.push(first);
      immediateConstantBuffer(new Cursor(s.trimEnd(), first, base, text), words);
      continue;
    }
    lines.push(first);
    if (s.startsWith('printf ') || s.startsWith('errorf ')) {
      shaderMessage(s, first, base, text, version.major, words);
      continue;
    }
    const cut = s.indexOf('//');
    if (cut >= 0) s = s.slice(0, cut);
    const c = new Cursor(s.trimEnd(), first, base, text);
    if (!assembleDeclaration(c, version.major, version.minor, words)) assembleInstruction(c, version.major, words);
  }
  if (version === undefined)
    throw new AsmError('E907_ASM_PROGRAM', 'the listing has no version line', raw.length, 1, '');
  words[1] = words.length;
  return { ...version, words: Uint32Array.from(words), lines };
}

function braces(s: string): number {
  let d = 0;
  for (const ch of s) d += ch === '{' ? 1 : ch === '}' ? -1 : 0;
  return d;
}

/** dcl_immediateConstantBuffer { { a, b, c, d}, ... }: customdata class 3. */
function immediateConstantBuffer(c: Cursor, out: number[]): void {
  c.i = 'dcl_immediateConstantBuffer'.length;
  c.expect(' {');
  const lanes: number[] = [];
  c.ws();
  while (c.eat('{')) {
    for (;;) {
      c.ws();
      const at = c.i;
      lanes.push(laneBits(c.word(/[^,}\s]/), c, at, true));
      if (c.eat('}')) break;
      c.expect(',');
    }
    if (!c.eat(',')) break;
    while (/\s/.test(c.peek())) c.i++;
  }
  c.ws();
  c.expect('}');
  c.end();
  out.push((OPCODE_CUSTOMDATA | (3 << 11)) >>> 0, lanes.length + 2, ...lanes);
}

/** printf / errorf "text", operands: customdata class 4 (id, format 1 = printf, characters, operand count and words, operands, the text's bytes with a NUL, padded to words). */
function shaderMessage(s: string, line: number, base: number, text: string, major: number, out: number[]): void {
  const kind = s.slice(0, 6);
  // The text is printed unescaped but for \\, \n, \t and \r: its end is the last quote after which operands (or a debug remark) parse.
  let failure: AsmError | undefined;
  for (let q = s.lastIndexOf('"'); q > 7; q = s.lastIndexOf('"', q - 1)) {
    try {
      const body = s.slice(8, q);
      const c = new Cursor(s, line, base, text);
      c.i = q + 1;
      const ops: number[] = [];
      let count = 0;
      while (c.eat(', ')) {
        encodeOperand(c, readOperand(c, major, true), 'source', ops);
        count++;
      }
      c.ws();
      if (!c.done && !c.startsWith('//')) throw c.fail('E901_ASM_SYNTAX', `unexpected ${c.found()} after the message`);
      const bytes: number[] = [];
      for (let i = 0; i < body.length; i++) {
        let ch = body[i]!;
        if (ch === '\\') {
          const e = UNESCAPES[body[i + 1] ?? ''];
          if (e === undefined) throw c.fail('E901_ASM_SYNTAX', 'a message escapes only \\\\, \\n, \\t and \\r', 8 + i);
          ch = e;
          i++;
        }
        const code = ch.charCodeAt(0);
        if (code > 0xff) throw c.fail('E906_ASM_LITERAL', 'a message holds 8-bit characters only', 8 + i);
        bytes.push(code);
      }
      const strWords = new Array<number>(Math.floor(bytes.length / 4) + 1).fill(0);
      bytes.forEach((b, i) => (strWords[i >> 2]! |= b << ((i & 3) * 8)));
      const payload = [MESSAGE_IDS[kind]!, 1, bytes.length, count, ops.length, ...ops, ...strWords.map((w) => w >>> 0)];
      out.push((OPCODE_CUSTOMDATA | (4 << 11)) >>> 0, payload.length + 2, ...payload);
      return;
    } catch (e) {
      if (!(e instanceof AsmError)) throw e;
      failure ??= e;
    }
  }
  if (!s.startsWith('"', 7))
    throw new AsmError('E901_ASM_SYNTAX', `${kind} takes a quoted message`, line, base + 8, text);
  throw failure ?? new AsmError('E901_ASM_SYNTAX', 'the message has no closing quote', line, base + s.length + 1, text);
}
