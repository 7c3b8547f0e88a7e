// Printing a Shader Model 4/5 instruction (not a declaration) as D3DDisassemble does: the
// mnemonic with its suffixes (_sat, _nz/_z, sync flags, _aoffimmi(u,v,w), _indexable(dim),
// return types, _uint / _rcpFloat), then the operands with their literal kinds and
// minimum-precision notes. The mnemonic is always followed by a space, operands or not.

import type { Instruction } from '../sm4/types.js';
import { OPCODES } from '../sm4/opcodes.js';
import { OPERAND_TYPES, RESOURCE_DIMENSIONS } from './names.js';
import { returnTypes } from './declaration.js';
import { precisionName, printOperand, type OperandContext } from './operand.js';

/** Opcodes whose token bit 18 chooses _nz (set) or _z. */
const CONDITIONAL: ReadonlySet<number> = new Set([0x03, 0x05, 0x08, 0x0d, 0x1f, 0x3f]);

const signed4 = (v: number): number => (v & 8 ? v - 16 : v);

export function mnemonic(ins: Instruction): string {
  const info = OPCODES[ins.opcode]!;
  const t = ins.token;
  let name = info.name;
  if (CONDITIONAL.has(ins.opcode)) name += t & (1 << 18) ? '_nz' : '_z';
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
  name += aoff + dim + ret;
  if (ins.opcode === 0x3d) {
    const rt = (t >>> 11) & 3;
    if (rt === 1) name += '_rcpFloat';
    else if (rt === 2) name += '_uint';
  } else if (ins.opcode === 0x6f && (t >>> 11) & 1) name += '_uint';
  if (t & (1 << 13) && ins.opcode !== 0xbe && !CONDITIONAL.has(ins.opcode)) name += '_sat';
  return name;
}

/** The instruction's text: mnemonic, a space, operands joined by ', '. */
export function printInstruction(ins: Instruction, ctx: OperandContext): string {
  const info = OPCODES[ins.opcode]!;
  const kinds = OPERAND_TYPES[ins.opcode] ?? '';
  const ops = ins.operands;
  const nd = info.dst.length;
  const dstPrec = nd > 0 && ops[0] ? precisionName(ops[0]) : '';
  const parts: string[] = [];
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    const p = precisionName(op);
    let note = p;
    // A source of the destination's type whose precision differs prints the conversion.
    if (i >= nd && nd > 0 && kinds[i] === kinds[0]) {
      if (p !== dstPrec) {
        if (p === '') note = `def32 as ${dstPrec}`;
        else if (dstPrec === '') note = `${p} as def32`;
      }
    }
    parts.push(printOperand(op, ctx, kinds[i] ?? 'f', note));
  }
  const precise = (ins.token >>> 19) & 0xf;
  let name = mnemonic(ins);
  if (precise) {
    let lanes = '';
    for (let i = 0; i < 4; i++) if (precise & (1 << i)) lanes += 'xyzw'[i];
    name += precise === 0xf ? ' [precise]' : ` [precise(${lanes})]`;
  }
  // fcall: the interface operand, then the call site's word in brackets.
  if (ins.opcode === 0x78) return `${name} ${parts.join(', ')}[${ins.values[0] ?? 0}]`;
  // sync is the one operand-less instruction printed without a trailing space.
  if (ins.opcode === 0xbe) return name;
  return `${name} ${parts.join(', ')}`;
}
