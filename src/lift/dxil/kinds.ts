// The resource kinds each DXIL resource operation reads, and the texel offsets a kind takes, as
// dxc's validator states them (lib/DxilValidation/DxilValidation.cpp: ValidateSampler /
// ValidateGather / the TextureLoad, TextureStore and CalculateLOD cases, with the rules
// InstrResourceKindForSample, ...ForSampleC, ...ForGather, ...ForTextureLoad, ...ForTextureStore,
// ...ForCalcLOD and InstrResourceOffsetTooMany; DxilResource::GetNumOffsets). Checked at the call,
// before its handler reads the resource: another kind is E602 naming the operation.

import { Constant, type Instruction } from '../../dxil/ir.js';
import { dxOpName } from '../../dxil/dxop.js';
import type { DxilLifter } from './lifter.js';
import type { DxResource } from './resources.js';
import { handleOf } from './ops-common.js';

type Shape = DxResource['shape'];

const SAMPLED: readonly Shape[] = ['1d', '1darray', '2d', '2darray', 'cube', 'cubearray'];
const LOADED: readonly Shape[] = ['1d', '1darray', '2d', '2darray', '3d', '2dms', '2dmsarray'];
const GATHERED: readonly Shape[] = ['2d', '2darray', 'cube', 'cubearray'];

/** opcode -> [the kinds it reads, the operand of its first texel offset (or undefined)]. */
const RULES: ReadonlyMap<number, readonly [readonly Shape[], number | undefined]> = new Map([
  [60, [[...SAMPLED, '3d'], 7]], // Sample
  [61, [[...SAMPLED, '3d'], 7]], // SampleBias
  [62, [[...SAMPLED, '3d'], 7]], // SampleLevel
  [63, [[...SAMPLED, '3d'], 7]], // SampleGrad
  [64, [SAMPLED, 7]], // SampleCmp: no comparison of a 3D texture
  [65, [SAMPLED, 7]], // SampleCmpLevelZero
  [224, [SAMPLED, 7]], // SampleCmpLevel
  [254, [SAMPLED, 7]], // SampleCmpGrad
  [255, [SAMPLED, 7]], // SampleCmpBias
  [73, [GATHERED, 7]], // TextureGather
  [74, [GATHERED, 7]], // TextureGatherCmp
  [223, [GATHERED, 7]], // TextureGatherRaw
  [66, [LOADED, 6]], // TextureLoad
  [67, [LOADED, undefined]], // TextureStore
  [81, [[...SAMPLED, '3d'], undefined]], // CalculateLOD
]);

/** Texel offsets a kind takes (DxilResource::GetNumOffsets). */
function offsetCount(shape: Shape): number {
  if (shape === '3d') return 3;
  if (shape === '1d' || shape === '1darray') return 1;
  if (shape === '2d' || shape === '2darray' || shape === '2dms' || shape === '2dmsarray') return 2;
  return 0;
}

const isUndef = (v: unknown): boolean => v instanceof Constant && v.ck === 'undef';

/** The E602 of a call of `opcode` on `res`: the operation, what is wrong, the resource's name (the
 * texts are made only for an error). */
function fault(L: DxilLifter, opcode: number, res: DxResource, what: string): never {
  return L.invalid(`${dxOpName(opcode) ?? 'dx.op'} (dx.op ${opcode}) ${what}${res.dx.name ? ` (${res.dx.name})` : ''}`);
}

/** Refuses (E602) a call of `opcode` whose resource (operand 1) is of a kind it does not read, or
 * which gives a texel offset its kind does not take; nothing for other operations. */
export function resourceKindRule(L: DxilLifter, c: Instruction, opcode: number): void {
  const rule = RULES.get(opcode);
  if (!rule) return;
  const res = handleOf(L, c.ops[1] ?? L.invalid('operand 1 is missing')).res;
  const [kinds, first] = rule;
  if (!kinds.includes(res.shape)) fault(L, opcode, res, `of a ${res.shape} resource`);
  if (first === undefined) return;
  // a gather takes two offsets (none on a cube); the others an offset a coordinate (the validator
  // checks the offsets from the second on: past the kind's count they must be undef)
  const gather = opcode === 73 || opcode === 74 || opcode === 223;
  const n = gather ? 2 : 3;
  const from = gather ? offsetCount(res.shape) : Math.max(1, offsetCount(res.shape));
  for (let k = from; k < n; k++)
    if (!isUndef(c.ops[first + k])) fault(L, opcode, res, `with offset ${k} on a ${res.shape} texture`);
}
