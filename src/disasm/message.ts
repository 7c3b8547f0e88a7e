// The shader-message customdata block (D3D11_SB_CUSTOMDATA_SHADER_MESSAGE, d3d12TokenizedProgramFormat.hpp):
// message id, format, character count, operand count, operand length, the operands, then the
// string. D3DDisassemble prints it as an instruction: printf (message) or errorf (error), the
// quoted string, then the operands.

import { decodeOperandList } from '../sm4/decode.js';
import type { Program } from '../sm4/types.js';
import { printOperand, type OperandContext } from './operand.js';

const MESSAGE_ERROR = 0x00200103;

/** D3DDisassemble writes a message's backslash, newline, tab and carriage return as C escapes
 * (`\\`, `\n`, `\t`, `\r`) and every other character, a double quote included, as it is
 * (../shared/oracle/own/printf_escapes). */
export function escapeMessage(s: string): string {
  return s.replace(/[\\\n\t\r]/g, (c) => ESCAPES[c]!);
}
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r' };

export function printShaderMessage(words: Uint32Array, ctx: OperandContext, _program: Program): string {
  const id = words[0] ?? 0;
  const chars = words[2] ?? 0;
  const nops = words[3] ?? 0;
  const opsLen = words[4] ?? 0;
  const opWords = words.subarray(5, 5 + opsLen);
  const ops = decodeOperandList(opWords, nops, 'SHEX');
  const strWords = words.subarray(5 + opsLen);
  let s = '';
  for (let i = 0; i < chars && i < strWords.length * 4; i++)
    s += String.fromCharCode((strWords[i >> 2]! >>> ((i & 3) * 8)) & 0xff);
  const head = `${id === MESSAGE_ERROR ? 'errorf' : 'printf'} "${escapeMessage(s)}"`;
  return ops.length ? `${head}, ${ops.map((o) => printOperand(o, ctx, 'x')).join(', ')}` : head;
}
