// skate.'s engine structures (../shared/spec/skate-bindings.md), above the container layer: the
// readers and writers of binding sets, pass bindings, input layouts and render state, the register
// mapping, the input-layout check and the pipeline description. Core only, no Node API; the module's
// README.md says what is known, what is not, and that it is checked on constructed data only.

export { SkateError, type SkateStructure, type UnknownBytes } from './bytes.js';
export {
  readBindingSet,
  writeBindingSet,
  readPassBinding,
  writePassBinding,
  layoutBindingSet,
  layoutPassBinding,
  constantEntry,
  bufferSizeOf,
  CONSTANT_MARKER,
  PASS_BINDING_VERSIONS,
  type BindingSet,
  type PassBinding,
  type BindingGroup,
  type BindingParameter,
  type BindingEntry,
  type GroupInput,
} from './binding-set.js';
export {
  readInputLayout,
  writeInputLayout,
  layoutInputLayout,
  elementFormat,
  formatWord,
  type InputLayout,
  type InputElement,
} from './input-layout.js';
export {
  readRenderState,
  writeRenderState,
  layoutRenderState,
  rasterizerBits,
  depthStencilBits,
  packRasterizerBits,
  packDepthStencilBits,
  f32Bits,
  f32FromBits,
  writeMaskOf,
  DEPTH_FUNCS,
  CULL_MODES,
  type RenderState,
  type RenderTargetRecord,
  type RasterizerBits,
  type DepthStencilBits,
  type DepthFunc,
  type CullMode,
} from './render-state.js';
export { DXGI_FORMAT_NAMES, dxgiName, vertexFormat, type VertexFormatInfo } from './dxgi.js';
export { programFacts, type ProgramFacts, type Declaration, type RegisterClass } from './program.js';
export {
  candidateSource,
  mapDeclaration,
  mapProgram,
  countMapped,
  emptyCounts,
  type MapSources,
  type MapCounts,
  type MappedDeclaration,
  type MapStatus,
  type Source,
} from './mapping.js';
export { checkInputLayout, maskWidth, type InputCheck, type CheckedInput, type InputMatch } from './input-check.js';
export { describePipeline, type PipelineDescription, type PipelineOptions } from './pipeline.js';
export {
  bindingSetJson,
  bindingSetText,
  passBindingJson,
  passBindingText,
  inputLayoutJson,
  inputLayoutText,
  renderStateJson,
  renderStateText,
} from './view.js';
