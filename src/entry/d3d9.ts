// iridia/d3d9: Direct3D 9 programs: decoder, listing, assembler, constant table, debug information, level-9 listings.
// A subpath export of the package (package.json "exports"); the same names as the root export
// (src/index.ts), by layer. test/package/exports.test.ts checks that every root name is in one.

export {
  decodeD3D9,
  isD3D9Program,
  type D3D9Program,
  type D3D9Record,
  type D3D9Instruction,
  type D3D9Comment,
  type D3D9Version,
  type D3D9Dst,
  type D3D9Src,
  type D3D9Dcl,
  type D3D9RelAddr,
} from '../d3d9/decode.js';
export { disassembleD3D9, printD3D9, D3D9_FLAGS, type D3D9ListingOptions } from '../d3d9/disasm.js';
export { readConstantTable, type ConstantTable, type CtabConstant, type CtabType } from '../d3d9/ctab.js';
export { readDebugInfo, type DebugInfo, type DbugLine, type DbugVariable, type DbugLocation } from '../d3d9/dbug.js';
export { level9Listing } from '../disasm/level9.js';
export {
  assembleD3D9,
  isD3D9Listing,
  d3d9Losses,
  type AssembleD3D9Options,
  type AssembleD3D9Result,
} from '../asm/index.js';
