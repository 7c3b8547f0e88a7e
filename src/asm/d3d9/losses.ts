// What a Direct3D 9 listing cannot hold: the fields of a token stream that src/d3d9/operands.ts does not print
// (or prints the same for two values), so that assembling the listing cannot give them back. Each is named by
// cause and counted, never guessed; the assembler writes the one value the printer implies (0, the quiet NaN,
// the canonical address token). Comment blocks are not among them: they are kept from a `like` program.
//
// The causes:
// - nan-payload: a def value that is a NaN other than the ones %.9g's 1.#QNAN and 1.#SNAN stand for (flag 0);
// - defb-value: a defb word other than 0 and 1 (printed true for any nonzero);
// - controls: instruction bits 16-23 the mnemonic does not print (any but a comparison's bits 0-2 and
//   ps_2_0+ texld's 1 texldp, 2 texldb);
// - sm1-length: Shader Model 1 instruction bits 24-27 (a length field the versions before 2.0 do not have);
// - reserved-bit: instruction token bit 29;
// - dcl-token: dcl usage-token bits the mnemonic does not print (a sampler's usage, a ps_2_x t#'s usage,
//   bits outside usage, index and sampler type, a clear bit 31);
// - shift: a destination shift other than _x2 _x4 _x8 _d2 _d4 _d8;
// - result-modifier: destination modifier bit 3 (bits 0-2 are _sat, _pp, _centroid);
// - register-number: the number of a register printed without one (oDepth, aL);
// - address-token: a Shader Model 2+ relative-address token other than a0 with its component replicated or aL
//   with the identity swizzle;
// - register-not-in-version, operand-count: a register or an operand count the version does not have (the
//   assembler refuses the line, E903, E904).

import type { D3D9Dst, D3D9Instruction, D3D9Program, D3D9RelAddr, D3D9Src } from '../../d3d9/decode.js';
import { SHIFTS } from '../../d3d9/opcodes.js';
import { REG } from '../../d3d9/registers.js';
import { addressToken, printsUsage, sourceCount, unavailable, type Version } from './program.js';

export type D3D9Loss =
  | 'nan-payload'
  | 'defb-value'
  | 'controls'
  | 'sm1-length'
  | 'reserved-bit'
  | 'dcl-token'
  | 'shift'
  | 'result-modifier'
  | 'register-number'
  | 'address-token'
  | 'register-not-in-version'
  | 'operand-count';

/** The quiet and signalling NaNs the flag-0 listing's 1.#QNAN and 1.#SNAN reassemble to. */
const PRINTED_NANS = new Set([0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001]);

/** Each cause with the number of fields of the program the listing under `flags` cannot give back. */
export function d3d9Losses(program: D3D9Program, flags: number): Map<D3D9Loss, number> {
  const out = new Map<D3D9Loss, number>();
  const add = (k: D3D9Loss): void => void out.set(k, (out.get(k) ?? 0) + 1);
  const pv = program.version;
  const v: Version = { stage: pv.stage, major: pv.major, minor: pv.minor, library: pv.library === true };
  const view = new DataView(program.bytes.buffer, program.bytes.byteOffset, program.bytes.byteLength);
  for (const r of program.records) {
    if (r.kind !== 'instruction') continue;
    const token = view.getUint32(r.offset, true);
    instructionLosses(r, token, v, flags, add);
    if (r.dst !== undefined) dstLosses(r.dst, v, add);
    for (const s of r.predicate === undefined ? r.srcs : [r.predicate, ...r.srcs]) srcLosses(s, v, add);
    // the parameter tokens after the instruction token, to find each address token
    if (v.major >= 2) {
      let w = r.offset / 4 + 1 + (r.dcl !== undefined ? 1 : 0);
      const params: (D3D9Dst | D3D9Src)[] = [];
      if (r.dst !== undefined) params.push(r.dst);
      if (r.predicate !== undefined) params.push(r.predicate);
      params.push(...r.srcs);
      for (const p of params) {
        w++;
        if (p.rel === undefined) continue;
        if (view.getUint32(w * 4, true) !== addressToken(p.rel)) add('address-token');
        w++;
      }
    }
  }
  return out;
}

function instructionLosses(
  r: D3D9Instruction,
  token: number,
  v: Version,
  flags: number,
  add: (k: D3D9Loss) => void,
): void {
  const printed = r.info.comparison
    ? 7
    : r.opcode === 66 && v.stage === 'ps' && v.major >= 2 && r.controls <= 2
      ? 3
      : 0;
  if (r.controls & ~printed) add('controls');
  if (v.major < 2 && (token >>> 24) & 0xf) add('sm1-length');
  if (token & 0x20000000) add('reserved-bit');
  if (r.info.shape === 'def' && !(flags & 0x80))
    for (const x of r.values)
      if ((x & 0x7f800000) === 0x7f800000 && x & 0x7fffff && !PRINTED_NANS.has(x >>> 0)) add('nan-payload');
  if (r.info.shape === 'defb' && r.values[0]! > 1) add('defb-value');
  if (r.info.shape === 'regular' && v.major >= 2 && r.srcs.length !== sourceCount(r.opcode, v)) add('operand-count');
  if (r.dcl !== undefined) {
    const t = r.dcl.token >>> 0;
    const dst = r.dst!;
    const kept = dst.type === REG.sampler ? 0x78000000 : printsUsage(dst.type, v) ? 0x000f001f : 0;
    if ((t & ~kept & 0x7fffffff) !== 0 || !(t & 0x80000000)) add('dcl-token');
  }
}

function dstLosses(d: D3D9Dst, v: Version, add: (k: D3D9Loss) => void): void {
  if (d.shift !== 0 && !SHIFTS.has(d.shift)) add('shift');
  if (d.modifiers & 8) add('result-modifier');
  registerLosses(d, d.rel, v, add);
}

function srcLosses(s: D3D9Src, v: Version, add: (k: D3D9Loss) => void): void {
  registerLosses(s, s.rel, v, add);
}

function registerLosses(
  reg: { type: number; num: number },
  rel: D3D9RelAddr | undefined,
  v: Version,
  add: (k: D3D9Loss) => void,
): void {
  if ((reg.type === REG.depthOut || reg.type === REG.loop) && reg.num !== 0) add('register-number');
  if (unavailable(reg, v) !== undefined) add('register-not-in-version');
  if (rel !== undefined && rel.type === REG.loop && rel.num !== 0) add('register-number');
}
