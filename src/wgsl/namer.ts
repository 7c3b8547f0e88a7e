// The WGSL namer (after naga's proc::Namer): turns IR name hints into identifiers that are valid,
// unique in their scope, and never a WGSL keyword, reserved word, predeclared type or builtin
// function (a local named `min` would hide the builtin). Collisions get `_1`, `_2`, ...

const KEYWORDS =
  'alias break case const const_assert continue continuing default diagnostic discard else enable false fn for if let loop override requires return struct switch true var while';
const RESERVED =
  'NULL Self abstract active alignas alignof as asm asm_fragment async attribute auto await become cast catch class co_await co_return co_yield coherent column_major common compile compile_fragment concept const_cast consteval constexpr constinit crate debugger decltype delete demote demote_to_helper do dynamic_cast enum explicit export extends extern external fallthrough filter final finally friend from fxgroup get goto groupshared highp impl implements import inline instanceof interface layout lowp macro macro_rules match mediump meta mod module move mut mutable namespace new nil noexcept noinline nointerpolation non_coherent noncoherent noperspective null nullptr of operator package packoffset partition pass patch pixelfragment precise precision premerge priv protected pub public readonly ref regardless register reinterpret_cast require resource restrict self set shared sizeof smooth snorm static static_assert static_cast std subroutine super target template this thread_local throw trait try type typedef typeid typename typeof union unless unorm unsafe unsized use using varying virtual volatile wgsl where with writeonly yield';
const TYPES =
  'bool f16 f32 i32 u32 vec2 vec3 vec4 mat2x2 mat2x3 mat2x4 mat3x2 mat3x3 mat3x4 mat4x2 mat4x3 mat4x4 array atomic ptr sampler sampler_comparison texture_1d texture_2d texture_2d_array texture_3d texture_cube texture_cube_array texture_multisampled_2d texture_depth_2d texture_depth_2d_array texture_depth_cube texture_depth_cube_array texture_depth_multisampled_2d texture_storage_1d texture_storage_2d texture_storage_2d_array texture_storage_3d texture_external vec2i vec3i vec4i vec2u vec3u vec4u vec2f vec3f vec4f vec2h vec3h vec4h function private workgroup uniform storage handle read write read_write';
const BUILTINS =
  'abs acos acosh all any arrayLength asin asinh atan atan2 atanh atomicAdd atomicAnd atomicCompareExchangeWeak atomicExchange atomicLoad atomicMax atomicMin atomicOr atomicStore atomicSub atomicXor bitcast ceil clamp cos cosh countLeadingZeros countOneBits countTrailingZeros cross degrees determinant distance dot dpdx dpdxCoarse dpdxFine dpdy dpdyCoarse dpdyFine exp exp2 extractBits faceForward firstLeadingBit firstTrailingBit floor fma fract frexp fwidth fwidthCoarse fwidthFine insertBits inverseSqrt ldexp length log log2 max min mix modf normalize pack2x16float pack2x16snorm pack2x16unorm pack4x8snorm pack4x8unorm pow quantizeToF16 radians reflect refract reverseBits round saturate select sign sin sinh smoothstep sqrt step storageBarrier tan tanh textureBarrier textureDimensions textureGather textureGatherCompare textureLoad textureNumLayers textureNumLevels textureNumSamples textureSample textureSampleBaseClampToEdge textureSampleBias textureSampleCompare textureSampleCompareLevel textureSampleGrad textureSampleLevel textureStore transpose trunc unpack2x16float unpack2x16snorm unpack2x16unorm unpack4x8snorm unpack4x8unorm workgroupBarrier workgroupUniformLoad';

/** Every word no generated identifier may be. */
export const WGSL_RESERVED: ReadonlySet<string> = new Set(`${KEYWORDS} ${RESERVED} ${TYPES} ${BUILTINS}`.split(/\s+/));

export class Namer {
  private readonly used: Set<string>;
  private readonly next = new Map<string, number>();

  constructor(
    private readonly parent?: Namer,
    taken: Iterable<string> = [],
  ) {
    this.used = new Set(taken);
  }

  private taken(name: string): boolean {
    return this.used.has(name) || (this.parent?.taken(name) ?? false);
  }

  /** A fresh identifier for `hint` in this scope. */
  name(hint: string): string {
    let base = isWord(hint) ? hint : hint.replace(/[^A-Za-z0-9_]/g, '_');
    const c0 = base.charCodeAt(0);
    if (base === '' || (c0 >= 48 && c0 <= 57)) base = `v_${base}`;
    if (base.startsWith('__')) base = `u${base}`;
    if (base === '_') base = 'u_';
    if (WGSL_RESERVED.has(base)) base = `${base}_`;
    // Most hints are free as they are (a let's value number): no suffix to look up.
    if (!this.taken(base)) {
      this.used.add(base);
      return base;
    }
    // Continue from the last suffix given for this base (many lets share a hint).
    let k = this.next.get(base) ?? 1;
    let name = `${base}_${k++}`;
    while (this.taken(name)) name = `${base}_${k++}`;
    this.next.set(base, k);
    this.used.add(name);
    return name;
  }

  child(): Namer {
    return new Namer(this);
  }
}

/** Whether `s` holds only ASCII letters, digits and underscores (no rewriting needed). */
function isWord(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95)) return false;
  }
  return true;
}
