// iridia's public API. The core (everything exported here) uses no Node API and runs in browsers.

export { IridiaError, UnsupportedError, isIridiaError, type ErrorCode, type ErrorLocation } from './errors.js';
export { ByteReader } from './binary/reader.js';
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
} from './container/container.js';
export { containerDigest, containerDigestOf } from './container/digest.js';
export { programInfo, type ProgramInfo, type ContainerKind } from './container/program.js';
