// Instruction slot costs of Direct3D 9 instructions, as D3DDisassemble counts them for its "approximately N
// instruction slots used (T texture, A arithmetic)" line and for the numbers flag 0x04 prints. A number printed
// by flag 0x04 is the arithmetic count before the instruction, so texture instructions repeat it and zero-slot
// records (dcl, def, nop, label) print none. The costs start from the Direct3D 9 assembly reference's tables and
// were corrected against the oracle's listings where D3DDisassemble counts otherwise: texkill is arithmetic,
// lrp and lit cost 1, dsx/dsy cost 2 in ps_3_0 as in ps_2_x, texldd is 1 texture and 2 arithmetic slots.
// Unverified rows (no listing exercises them): m4x4-m3x2, call/callnz/label, crs, sgn, breakp, texldl in ps.

import type { D3D9Instruction, D3D9Version } from './decode.js';

export interface SlotCost {
  readonly arithmetic: number;
  readonly texture: number;
}

const ZERO: SlotCost = { arithmetic: 0, texture: 0 };
const ONE: SlotCost = { arithmetic: 1, texture: 0 };
const a = (n: number): SlotCost => ({ arithmetic: n, texture: 0 });
const t = (n: number): SlotCost => ({ arithmetic: 0, texture: n });

/** Costs that do not depend on the version (by raw opcode); everything unlisted costs one arithmetic slot. */
const FIXED: ReadonlyMap<number, SlotCost> = new Map([
  [0, ZERO], // nop
  [20, a(4)], // m4x4
  [21, a(3)], // m4x3
  [22, a(4)], // m3x4
  [23, a(3)], // m3x3
  [24, a(2)], // m3x2
  [25, a(2)], // call
  [26, a(3)], // callnz
  [27, a(3)], // loop
  [29, a(2)], // endloop
  [30, ZERO], // label
  [31, ZERO], // dcl
  [32, a(3)], // pow
  [33, a(2)], // crs
  [34, a(3)], // sgn
  [36, a(3)], // nrm
  [37, a(8)], // sincos
  [38, a(3)], // rep
  [39, a(2)], // endrep
  [40, a(3)], // if
  [41, a(3)], // if_comp
  [45, a(3)], // break_comp
  [47, ZERO], // defb
  [48, ZERO], // defi
  [66, t(1)], // texld, texldp, texldb
  [81, ZERO], // def
  [90, a(2)], // dp2add
  [91, a(2)], // dsx
  [92, a(2)], // dsy
  [93, { arithmetic: 2, texture: 1 }], // texldd
  [95, t(2)], // texldl
  [96, a(3)], // breakp
  [0xfffd, ZERO], // phase
]);

export function slotCost(ins: D3D9Instruction, _version: D3D9Version): SlotCost {
  return FIXED.get(ins.opcode) ?? ONE;
}
