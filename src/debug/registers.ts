// How a debug location's register is named in a listing's remarks (spec: containers.md, "Debug
// information in Shader Model 4 and 5 (SPDB)", S_DEFRANGE_HLSL): the token stream's operand type
// gives the name, numbered registers take their index, two-index registers print [outer][register],
// and a component letter follows (even for a one-lane system value such as vThreadIDInGroupFlattened),
// except for the one-lane outputs, whose operands carry no mask in the token stream either: oDepth,
// oDepthGE, oDepthLE, oMask (`oDepth <- <main return value>`, ../shared/oracle/own/zi_depth_return)
// and oStencilRef.

/** Operand type -> the register's name and whether it is numbered. */
const REGISTERS: Record<number, readonly [string, boolean]> = {
  0: ['r', true],
  1: ['v', true],
  2: ['o', true],
  3: ['x', true],
  11: ['vPrim', false],
  12: ['oDepth', false],
  15: ['oMask', false],
  16: ['m', true],
  22: ['vOutputControlPointID', false],
  23: ['vForkInstanceID', false],
  24: ['vJoinInstanceID', false],
  25: ['vicp', true],
  26: ['vocp', true],
  27: ['vpc', true],
  28: ['vDomain', false],
  31: ['g', true],
  32: ['vThreadID', false],
  33: ['vThreadGroupID', false],
  34: ['vThreadIDInGroup', false],
  35: ['vCoverage', false],
  36: ['vThreadIDInGroupFlattened', false],
  37: ['vGSInstanceID', false],
  38: ['oDepthGE', false],
  39: ['oDepthLE', false],
  41: ['oStencilRef', false],
  42: ['vInnerCoverage', false],
};

export const COMPONENTS = 'xyzw';

/** True for the registers a location names without a component (x#, m#). */
export function namedWhole(registerType: number): boolean {
  return registerType === 3 || registerType === 16;
}

/** The one-lane outputs, named without a component: oDepth, oMask, oDepthGE, oDepthLE, oStencilRef. */
const SCALAR_OUTPUTS: ReadonlySet<number> = new Set([12, 15, 38, 39, 41]);

/** True for the registers a location names without its component letter. */
export function namedWithoutComponent(registerType: number): boolean {
  return SCALAR_OUTPUTS.has(registerType);
}

/** The register's name: 'r3', 'v[2][1]', 'vThreadID', 'x0', or 'reg<type>' for a type with no name. */
export function registerName(registerType: number, indices: readonly number[]): string {
  const row = REGISTERS[registerType];
  const name = row ? row[0] : `reg${registerType}`;
  if (row && !row[1]) return name;
  if (indices.length >= 2) return `${name}[${indices[1]!}][${indices[0]!}]`;
  return `${name}${indices[0] ?? 0}`;
}
