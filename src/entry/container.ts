// iridia/container: containers: parse, write, sign, edit, digest, program info, typed errors.
// A subpath export of the package (package.json "exports"); the same names as the root export
// (src/index.ts), by layer. test/package/exports.test.ts checks that every root name is in one.

export { IridiaError, UnsupportedError, isIridiaError, type ErrorCode, type ErrorLocation } from '../errors.js';
export { ByteReader } from '../binary/reader.js';
export {
  parseContainer,
  serializeContainer,
  rewriteContainer,
  signContainer,
  editContainer,
  digestState,
  findPart,
  hasContainerMagic,
  type Container,
  type Part,
  type PartInput,
  type Finding,
  type FindingKind,
  type DigestState,
} from '../container/container.js';
export { containerDigest, containerDigestOf } from '../container/digest.js';
export { programInfo, type ProgramInfo, type ContainerKind } from '../container/program.js';
export { printableKind } from '../container/container.js';
