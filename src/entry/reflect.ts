// iridia/reflect: reflection of DXBC programs: RDEF, signatures, STAT, SFI0, IFCE, Aon9 and D3DReflect's shape.
// A subpath export of the package (package.json "exports"); the same names as the root export
// (src/index.ts), by layer. test/package/exports.test.ts checks that every root name is in one.

export {
  readSignature,
  isSignatureKind,
  SIGNATURE_LAYOUTS,
  type Signature,
  type SignatureElement,
  type SignatureKind,
} from '../parts/signature.js';
export {
  readRdef,
  typeSize,
  memberOffsetBase,
  type Rdef,
  type RdefLayout,
  type RdefType,
  type RdefMember,
  type RdefVariable,
  type RdefConstantBuffer,
  type RdefBinding,
} from '../parts/rdef.js';
export { readStat, STAT_WORDS, type Stat, type StatWord } from '../parts/stat.js';
export { readSfi0, SFI0_BITS, type FeatureInfo } from '../parts/sfi0.js';
export { readIfce, type Ifce, type IfceInstance, type IfceClassType, type IfceSlotRecord } from '../parts/ifce.js';
export {
  readAon9,
  type Aon9,
  type Aon9ConstantRange,
  type Aon9ScalarRow,
  type Aon9SamplerRow,
  type Aon9RuntimeRow,
} from '../parts/aon9.js';
export {
  reflect,
  minFeatureLevel,
  type Reflection,
  type ShaderDesc,
  type ReflectedParameter,
} from '../reflect/reflection.js';
export { d3dReflectJson, type Json } from '../reflect/d3d.js';
export { reflectionJson, reflectionText } from '../reflect/view.js';
export { readDeclarations, type Declarations } from '../reflect/declarations.js';
export { readLibh, readLfs0, type LibraryHeader, type LibraryParameter } from '../parts/library.js';
