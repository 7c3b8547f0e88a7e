// iridia's IR: the typed program every reader (the SM4/5 lifter, later DXIL) fills and every writer
// (WGSL emitter, CPU executor) reads. One module holds arenas of types, constants, globals and
// functions; each function holds arenas of arguments, locals, lets and expressions, and a body of
// structured statements. Shape after naga's `lib.rs`, simplified: expressions are pure trees
// evaluated where a statement uses them (there is no `Emit`). Spec: ../shared/spec/lifter-dxbc.md.
//
// ## Semantics
//
// Handles. Every cross-reference is an index into an arena: TypeId into `Module.types`, ConstantId
// into `Module.constants`, GlobalId into `Module.globals`, FunctionId into `Module.functions`, and,
// within one function, ExprId into `Function.exprs`, LocalId into `Function.locals`, LetId into
// `Function.lets`. The validator (validate.ts) checks every handle is in range and that expression
// trees are acyclic (an expression only refers to expressions with a smaller index).
//
// Values. Scalars are `f32` (IEEE 754 binary32), `i32` (two's complement), `u32`, `bool`. Vectors have
// 2 to 4 components of one scalar. Every scalar literal is stored as its 32-bit pattern (`bits`,
// an unsigned number 0..2^32-1): an f32 literal's pattern may be any pattern, infinities and NaNs
// included; a bool literal is 0 or 1.
//
// Evaluation. Expressions have no side effects. An expression is evaluated when (and each time)
// a statement that uses it runs, reading variables as they are at that moment; sharing a handle
// between statements re-evaluates it. Within one expression the order of evaluation of operands is
// unobservable. A `let` statement evaluates its value once and names it: a `let` expression reads
// that value. Statements run in order; `if`, `loop` and `switch` nest blocks.
//
// Scope. A let is visible from its statement to the end of the block that holds it, nested blocks
// included; the validator refuses a use outside that range. Locals are function-wide, created at
// function entry with their `init` (evaluated in declaration order; a local's init may only use
// arguments, literals and constants) or with zero. Globals are module-wide.
//
// Control flow. `loop` repeats its body until `break` (innermost loop or switch) or `return`;
// `continue` starts the innermost loop's next iteration (never a switch). `switch` runs the one
// case whose `values` hold the selector (i32 or u32 compared as 32-bit patterns), else the case
// marked `default`; there is no fall-through. `kill` ends the invocation's writes (a pixel
// program's discard: it stops contributing outputs; with WGSL's demote semantics the invocation
// may keep running as a helper, so nothing after a kill may be observed by the caller). `return`
// leaves the function with its value (an entry point's outputs).
//
// Arithmetic (component-wise on vectors; both operands of a binary operation have the same type,
// except that a shift's count is u32 of the same shape):
// - f32 add, sub, mul, div, fma: IEEE 754 binary32, round to nearest even. Any operation with a NaN
//   operand yields a NaN (which one is unspecified); inf - inf, 0 * inf, 0 / 0 yield NaN; x / 0
//   yields a signed infinity for x != 0. Denormal operands and results may be flushed to zero of
//   the same sign (Direct3D 10+ allows it for arithmetic; `mov`-like copies never flush, since
//   registers hold raw bits). `rem` on f32 is x - y * trunc(x / y).
// - i32/u32 add, sub, mul wrap modulo 2^32. `mul_hi` gives the high 32 bits of the 64-bit product
//   (signed for i32). Integer `div` rounds toward zero; `rem` has the sign of the dividend. Integer
//   division by zero yields the dividend for `div` and 0 for `rem`; i32 MIN / -1 yields MIN and
//   MIN % -1 yields 0 (WGSL's definitions). A lifted program guards these with `select` where
//   Direct3D differs (division by zero gives 0xffffffff there).
// - shl, shr: the count is taken modulo the bit width (the low 5 bits) — the IR defines it so, and
//   the WGSL emitter writes the mask out. shr on i32 is arithmetic, on u32 logical.
// - and, or, xor, not: bitwise on i32/u32; on bool, logical (no short circuit: no side effects).
// - Comparisons (eq, ne, lt, le, gt, ge) give bool of the operands' shape. On f32 any comparison
//   with a NaN operand is false except `ne`, which is true (IEEE unordered).
// - neg: f32 flips the sign bit (NaN stays NaN); i32/u32 negate modulo 2^32. abs on f32 clears the
//   sign bit; on i32, abs(MIN) is MIN.
// - select(cond, accept, reject): accept where cond is true, component-wise (a scalar cond selects
//   whole vectors).
// - Math functions (`MathFn`): min, max, clamp: when no operand is NaN, the usual order; with a NaN
//   operand the result is unspecified among the operands (a lifted program guards NaN itself, as
//   Direct3D returns the other operand). saturate is clamp(x, 0, 1) with the same NaN rule. floor,
//   ceil, trunc, round (to nearest even), fract (x - floor(x)), sqrt, inverse_sqrt, exp2, log2, sin,
//   cos: IEEE where exact, otherwise within Direct3D's tolerance (ULP bounds of the D3D11 spec);
//   sqrt/log2 of a negative number and inverse_sqrt of a negative number are NaN; log2(0) is -inf,
//   inverse_sqrt(0) is +inf. count_one_bits, reverse_bits, first_leading_bit (u32: index of the
//   highest set bit counted from bit 0, 0xffffffff when none; i32: of the highest bit differing
//   from the sign bit, -1 when none), first_trailing_bit (index of the lowest set bit, 0xffffffff
//   when none), extract_bits(e, offset, count) and insert_bits(e, newbits, offset, count) as WGSL
//   defines them for offset + count <= 32 (the lifter masks and clamps Direct3D's operands first),
//   pack2x16float/unpack2x16float (round to nearest even; f16 infinities and NaNs carried), dot.
// - bitcast reinterprets the 32-bit pattern, never changing a bit. convert: f32 -> i32/u32 rounds
//   toward zero; a value outside the target's range, or NaN, gives 0 (the lifter writes
//   Direct3D's clamps and NaN rule out explicitly before converting, so it never relies on this);
//   i32/u32 -> f32 rounds to nearest even; i32 <-> u32 keeps the bits; bool -> number gives 0 or 1;
//   number -> bool is `x != 0`.
//
// Memory and indices.
// - A pointer expression (`global`, `local`, `access`/`member` of a pointer) names storage; `load`
//   reads it, `store` writes it. Handle-space globals (textures, samplers) are used without a load.
// - `access` with an index outside the array (or vector) reads the zero value of the element type
//   through a load; a store through it does nothing; an atomic through it does nothing and yields
//   0. A runtime-sized array's length is the bound buffer's size in elements. The lifter still
//   writes Direct3D's zero-for-out-of-range guards out where D3D defines them, so a target whose
//   robustness differs (WGSL clamps or returns any in-range value) gives Direct3D's answer.
// - Atomics act on `atomic` storage (workgroup or storage space) and return the previous value.
// - Image loads out of range (coordinate, array layer, level or sample) give zero (Direct3D's rule
//   for `ld`); image stores out of range do nothing. Sampling is the caller's: the IR says which
//   texture, sampler, coordinates, offsets, level selection and comparison; filtering is the
//   sampler's (and the executor's callback's).
// - Derivatives are taken across the 2x2 quad of pixel invocations; only pixel programs use them.
//
// Subgroups (waves) and quads: the `subgroup` statement. A wave is a fixed set of invocations of
// one stage (WGSL's subgroup, Direct3D's wave) of `subgroup_size` lanes (the builtin; 4 to 128, a
// power of two; the executor's wave is 32 lanes unless a run sets `waveSize`: a compute
// group's lanes 32w..32w+31 by local_invocation_index, a pixel batch's 8 quads 8w..8w+7; a group
// smaller than the wave, or its last wave, has lanes that do not exist and are never active). Lane
// ids (`subgroup_invocation_id`) are 0..size-1 in that order. The lanes that take part are the
// wave's active lanes: those running the statement (the execution mask where it stands), less
// helper lanes of pixel programs (a pixel outside the primitive, or one that has run `kill`), as
// Direct3D defines them; an inactive lane contributes nothing and its result is unspecified. The
// statement evaluates its operands once and binds the result to `result` (a let), as `atomic` does.
// - elect: true in the active lane with the lowest id only (WaveIsFirstLane).
// - all, any (bool): whether the operand is true in every / some active lane.
// - ballot (bool): vec4<u32> with bit (id % 32) of component (id / 32) set for each active lane
//   where the operand is true; every other bit 0.
// - broadcast_first: the operand in the active lane with the lowest id.
// - shuffle(value, index: u32): the operand in lane `index` of the wave; when that lane is not
//   active or index >= size, unspecified (the executor gives zero).
// - reduce(fn): the operand folded over the active lanes with `fn` (add, mul, min, max on f32, i32,
//   u32; and, or, xor on i32, u32), every active lane getting the same result; integer add/mul wrap;
//   f32 sums and products are in an unspecified order (the executor folds in lane order, rounding
//   each step to binary32); f32 min/max with a NaN operand: unspecified among the operands.
// - exclusive_scan(fn), inclusive_scan(fn) (add, mul): the fold over the active lanes whose id is
//   lower than (exclusive) or at most (inclusive) the lane's own; an empty fold is 0 for add, 1 for mul.
// - Quads are 4 lanes: in a pixel program a 2x2 of pixels (quad lane 0 top-left, 1 top-right,
//   2 bottom-left, 3 bottom-right), in a compute program 4 consecutive local_invocation_index values
//   (4q..4q+3, Direct3D's compute quads); a quad is always inside one wave. Quad operations read a
//   neighbour whether or not it is a helper (helpers run so that quads stay whole); reading a lane
//   that is not running the statement (divergent control flow) gives an unspecified value (the
//   executor: the operand as evaluated in that lane). quad_broadcast(value, index: a u32 literal
//   0..3) reads quad lane `index`; quad_swap_x reads the horizontal neighbour (lane ^ 1),
//   quad_swap_y the vertical one (lane ^ 2), quad_swap_diagonal the opposite one (lane ^ 3).
// Operands of broadcast_first, shuffle, reduce, the scans and the quad operations are f32, i32 or
// u32 scalars or vectors (never bool: WGSL's rule), applied component by component; the result has
// the operand's type. Only fragment and compute entry points use subgroups (WGSL's rule); a module
// that does needs WGSL's `subgroups` extension (the WebGPU device feature 'subgroups').
//
// Stages. An entry point (vertex, fragment, compute) is a function whose arguments and result
// members carry bindings (builtins or numbered locations). Hull, domain and geometry programs, and
// a vertex program that feeds a tessellator, are `stageFunctions`: plain functions the executor
// calls (see lift/stage.ts); geometry output uses the `emit`/`cut` statements.

export type Scalar = 'f32' | 'i32' | 'u32' | 'bool';
export type VecSize = 2 | 3 | 4;
export type TypeId = number;
export type ConstantId = number;
export type GlobalId = number;
export type FunctionId = number;
export type ExprId = number;
export type LocalId = number;
export type LetId = number;

export type ImageDim = '1d' | '2d' | '3d' | 'cube';
export type StorageFormat =
  | 'r32uint'
  | 'r32sint'
  | 'r32float'
  | 'rgba32uint'
  | 'rgba32sint'
  | 'rgba32float'
  | 'rgba8unorm'
  | 'rgba8snorm'
  | 'rgba16float';
export type StorageAccess = 'read' | 'write' | 'read_write';

export type ImageClass =
  | { readonly kind: 'sampled'; readonly scalar: 'f32' | 'i32' | 'u32'; readonly multisampled: boolean }
  | { readonly kind: 'depth'; readonly multisampled: boolean }
  | { readonly kind: 'storage'; readonly format: StorageFormat; readonly access: StorageAccess };

export interface StructMember {
  readonly name: string;
  readonly type: TypeId;
  readonly binding?: Binding;
}

export type Type =
  | { readonly kind: 'scalar'; readonly scalar: Scalar }
  | { readonly kind: 'vector'; readonly scalar: Scalar; readonly size: VecSize }
  /** `length` null: runtime-sized (only as the last thing in a storage buffer). */
  | { readonly kind: 'array'; readonly base: TypeId; readonly length: number | null }
  | { readonly kind: 'struct'; readonly name: string; readonly members: readonly StructMember[] }
  | { readonly kind: 'atomic'; readonly scalar: 'u32' | 'i32' }
  | { readonly kind: 'image'; readonly dim: ImageDim; readonly arrayed: boolean; readonly class: ImageClass }
  | { readonly kind: 'sampler'; readonly comparison: boolean }
  /** An array of resources bound as one range (SM5.1); `size` null: unbounded. */
  | { readonly kind: 'binding_array'; readonly base: TypeId; readonly size: number | null };

export type Builtin =
  | 'position'
  | 'vertex_index'
  | 'instance_index'
  | 'front_facing'
  | 'frag_depth'
  | 'sample_index'
  | 'sample_mask'
  | 'local_invocation_id'
  | 'local_invocation_index'
  | 'global_invocation_id'
  | 'workgroup_id'
  | 'num_workgroups'
  /** The lane's id in its wave, 0..subgroup_size-1 (see "Subgroups"). */
  | 'subgroup_invocation_id'
  /** Lanes in a wave (the executor: 32). */
  | 'subgroup_size';

export type Interpolation = 'perspective' | 'linear' | 'flat';
export type Sampling = 'center' | 'centroid' | 'sample';

export type Binding =
  | { readonly kind: 'builtin'; readonly builtin: Builtin }
  | {
      readonly kind: 'location';
      readonly location: number;
      readonly interpolation?: Interpolation;
      readonly sampling?: Sampling;
    };

export type AddressSpace = 'private' | 'workgroup' | 'uniform' | 'storage' | 'handle';

export interface ResourceBinding {
  readonly group: number;
  readonly binding: number;
}

export interface Global {
  readonly name: string;
  readonly space: AddressSpace;
  /** For storage space: read or read_write. */
  readonly access?: 'read' | 'read_write';
  readonly type: TypeId;
  readonly binding?: ResourceBinding;
  /** Private globals only: an initial value. */
  readonly init?: ConstantId;
}

/** A module-level constant: a value of `type` given as its 32-bit words in memory order. */
export interface Constant {
  readonly name: string;
  readonly type: TypeId;
  readonly words: readonly number[];
}

export interface FunctionArgument {
  readonly name: string;
  readonly type: TypeId;
  readonly binding?: Binding;
}

export interface LocalVariable {
  readonly name: string;
  readonly type: TypeId;
  readonly init?: ExprId;
}

export interface LetInfo {
  /** A name hint; writers make it unique. */
  readonly name: string;
}

export type UnaryOp = 'neg' | 'not';
export type BinaryOp =
  | 'add'
  | 'sub'
  | 'mul'
  | 'div'
  | 'rem'
  | 'and'
  | 'or'
  | 'xor'
  | 'shl'
  | 'shr'
  | 'eq'
  | 'ne'
  | 'lt'
  | 'le'
  | 'gt'
  | 'ge';
export type MathFn =
  | 'min'
  | 'max'
  | 'clamp'
  | 'saturate'
  | 'floor'
  | 'ceil'
  | 'trunc'
  | 'round'
  | 'fract'
  | 'sqrt'
  | 'inverse_sqrt'
  | 'exp2'
  | 'log2'
  | 'sin'
  | 'cos'
  // DXIL's dx.op trigonometry (SM4/5 programs have none: fxc expands them)
  | 'tan'
  | 'asin'
  | 'acos'
  | 'atan'
  | 'sinh'
  | 'cosh'
  | 'tanh'
  | 'fma'
  | 'dot'
  | 'mul_hi'
  | 'count_one_bits'
  | 'reverse_bits'
  | 'first_leading_bit'
  | 'first_trailing_bit'
  | 'extract_bits'
  | 'insert_bits'
  | 'pack2x16float'
  | 'unpack2x16float'
  | 'all'
  | 'any'
  | 'abs';

export type SampleLevel =
  | { readonly kind: 'auto' }
  | { readonly kind: 'zero' }
  | { readonly kind: 'exact'; readonly level: ExprId }
  | { readonly kind: 'bias'; readonly bias: ExprId }
  | { readonly kind: 'gradient'; readonly x: ExprId; readonly y: ExprId };

export type ImageQuery = 'size' | 'levels' | 'samples' | 'layers';

export type Expr =
  | { readonly op: 'literal'; readonly scalar: Scalar; readonly bits: number }
  | { readonly op: 'zero'; readonly type: TypeId }
  | { readonly op: 'constant'; readonly constant: ConstantId }
  | { readonly op: 'compose'; readonly type: TypeId; readonly parts: readonly ExprId[] }
  | { readonly op: 'splat'; readonly size: VecSize; readonly value: ExprId }
  /** Components of a vector by index; one index gives a scalar. */
  | { readonly op: 'swizzle'; readonly vector: ExprId; readonly pattern: readonly number[] }
  | { readonly op: 'arg'; readonly index: number }
  | { readonly op: 'global'; readonly global: GlobalId }
  | { readonly op: 'local'; readonly local: LocalId }
  | { readonly op: 'let'; readonly let: LetId }
  /** Element of an array/vector/binding array (value or pointer) at a computed index. */
  | { readonly op: 'access'; readonly base: ExprId; readonly index: ExprId }
  /** Member of a struct, or element of an array/vector, at a constant index. */
  | { readonly op: 'member'; readonly base: ExprId; readonly index: number }
  | { readonly op: 'load'; readonly pointer: ExprId }
  | { readonly op: 'unary'; readonly fn: UnaryOp; readonly arg: ExprId }
  | { readonly op: 'binary'; readonly fn: BinaryOp; readonly left: ExprId; readonly right: ExprId }
  | { readonly op: 'select'; readonly cond: ExprId; readonly accept: ExprId; readonly reject: ExprId }
  | { readonly op: 'math'; readonly fn: MathFn; readonly args: readonly ExprId[] }
  | { readonly op: 'bitcast'; readonly to: Scalar; readonly value: ExprId }
  | { readonly op: 'convert'; readonly to: Scalar; readonly value: ExprId }
  | {
      readonly op: 'derivative';
      readonly axis: 'x' | 'y' | 'width';
      readonly control: 'coarse' | 'fine' | 'none';
      readonly value: ExprId;
    }
  | {
      readonly op: 'sample';
      readonly image: ExprId;
      readonly sampler: ExprId;
      readonly coord: ExprId;
      readonly arrayIndex?: ExprId;
      /** A constant texel offset (i32 vector of the image's dimension). */
      readonly offset?: ExprId;
      readonly level: SampleLevel;
      readonly depthRef?: ExprId;
      /** Gather: the component gathered (0..3). */
      readonly gather?: number;
      /** A clamp on the level of detail (sample_cl); absent: none. */
      readonly clamp?: ExprId;
    }
  | {
      readonly op: 'image_load';
      readonly image: ExprId;
      readonly coord: ExprId;
      readonly arrayIndex?: ExprId;
      readonly sample?: ExprId;
      readonly level?: ExprId;
    }
  | { readonly op: 'image_query'; readonly image: ExprId; readonly query: ImageQuery; readonly level?: ExprId }
  /** Elements in a runtime-sized array behind a storage pointer. */
  | { readonly op: 'array_length'; readonly pointer: ExprId };

export type AtomicFn = 'add' | 'and' | 'or' | 'xor' | 'min' | 'max' | 'exchange' | 'compare_exchange' | 'load';

/** What an `atomic64` statement computes: min/max compare as signed (`_s`) or unsigned (`_u`) 64-bit integers. */
export const ATOMIC64_FNS = [
  'add',
  'and',
  'or',
  'xor',
  'min_s',
  'max_s',
  'min_u',
  'max_u',
  'exchange',
  'compare_exchange',
] as const;
export type Atomic64Fn = (typeof ATOMIC64_FNS)[number];

/** What a `subgroup` statement computes (see "Subgroups" above). */
export type SubgroupFn =
  | 'elect'
  | 'all'
  | 'any'
  | 'ballot'
  | 'broadcast_first'
  | 'shuffle'
  | 'reduce'
  | 'exclusive_scan'
  | 'inclusive_scan'
  | 'quad_broadcast'
  | 'quad_swap_x'
  | 'quad_swap_y'
  | 'quad_swap_diagonal';
/** The fold of a reduce or scan. */
export type SubgroupReduce = 'add' | 'mul' | 'min' | 'max' | 'and' | 'or' | 'xor';

export type Block = readonly Stmt[];

export interface SwitchCase {
  /** Selector values (32-bit patterns) of this case. */
  readonly values: readonly number[];
  readonly isDefault: boolean;
  readonly body: Block;
}

/**
 * Where a statement came from (provenance): the index of the source instruction, or of several
 * (ascending, no repeats) where the decompiler folded statements of several instructions into one.
 * DXBC: the decoded instruction's index in the token program (`Program.instructions` of
 * src/sm4, whose byte offset the listing's 0x20 flag prints; subroutine and interface bodies
 * inlined at a call keep their own instructions' indices). DXIL: the instruction's index in the
 * listing's order over the module's function bodies (the defined functions as the listing prints
 * them, each block's instructions in order, phis and terminators counted; the entry function's own
 * index when it is the only body; a callee inlined at a call keeps its instructions' indices).
 * Statements the lifter makes itself have none (the entry's prologue copies of inputs, the implicit
 * return at the end of a program without one); the output copies and return made at a `ret`
 * carry the ret's. A statement without an origin nested in one with an origin (an `if` a
 * conditional break becomes: its `break`) is attributed to the enclosing one by the writers' line
 * maps. The validator checks it is a non-negative integer (or a non-empty ascending list of them);
 * the printer prints it only when asked (`printModule(m, { origins: true })`); the WGSL emitter
 * writes it only into its line map (`emitWgslWithMap`); the executor ignores it.
 */
export type Origin = number | readonly number[];

type StmtBody =
  | { readonly op: 'let'; readonly let: LetId; readonly value: ExprId }
  | { readonly op: 'store'; readonly pointer: ExprId; readonly value: ExprId }
  | { readonly op: 'if'; readonly cond: ExprId; readonly accept: Block; readonly reject: Block }
  | { readonly op: 'loop'; readonly body: Block }
  | { readonly op: 'switch'; readonly selector: ExprId; readonly cases: readonly SwitchCase[] }
  | { readonly op: 'break' }
  | { readonly op: 'continue' }
  | { readonly op: 'return'; readonly value?: ExprId }
  | { readonly op: 'kill' }
  | {
      readonly op: 'barrier';
      /** Workgroup memory, storage (UAV) memory, storage textures. */
      readonly workgroup: boolean;
      readonly storage: boolean;
      readonly texture: boolean;
      /** Whether the threads of the group also wait for each other (D3D's _t). */
      readonly execution: boolean;
    }
  | {
      readonly op: 'atomic';
      readonly pointer: ExprId;
      readonly fn: AtomicFn;
      readonly value?: ExprId;
      readonly compare?: ExprId;
      /** Names the previous value (a let of the atomic's scalar type). */
      readonly result?: LetId;
    }
  /** A 64-bit atomic on two words (Shader Model 6.6's 64-bit atomics): `low` and `high` point at
   * `atomic<u32>` words holding the value's low and high 32 bits; `value` and `compare` are
   * vec2<u32> (x low, y high); the statement reads both words, computes `fn` on the 64-bit value
   * and writes both words back as ONE atomic step (no other invocation's access of either word
   * comes between: the executor runs it so); `result` names the previous 64-bit value (vec2<u32>).
   * add wraps modulo 2^64; compare_exchange writes `value` when both words equal `compare`. WGSL
   * has 32-bit atomics only: the emitter writes and, or, xor and add (carry into the high word) as
   * two word atomics when `result` is absent (the final memory is exact: the operations commute)
   * and refuses the rest by name (see src/wgsl/emit.ts). */
  | {
      readonly op: 'atomic64';
      readonly low: ExprId;
      readonly high: ExprId;
      readonly fn: Atomic64Fn;
      readonly value: ExprId;
      readonly compare?: ExprId;
      readonly result?: LetId;
    }
  | {
      readonly op: 'image_store';
      readonly image: ExprId;
      readonly coord: ExprId;
      readonly arrayIndex?: ExprId;
      readonly value: ExprId;
    }
  | {
      readonly op: 'subgroup';
      readonly fn: SubgroupFn;
      /** Every function but elect. */
      readonly argument?: ExprId;
      /** shuffle: the lane (u32); quad_broadcast: the quad lane (a u32 literal 0..3). */
      readonly index?: ExprId;
      /** reduce and the scans. */
      readonly reduce?: SubgroupReduce;
      /** Names the result (bool for elect/all/any, vec4<u32> for ballot, else the operand's type). */
      readonly result: LetId;
    }
  /** Runs function `fn` (never an entry point) with `args` (of its argument types); `result`, when
   * given, names the value it returns (a let of its result type), as an atomic's result does. */
  | { readonly op: 'call'; readonly fn: FunctionId; readonly args: readonly ExprId[]; readonly result?: LetId }
  /** Geometry: the output registers (the private global `o`) as they are now form a vertex of `stream`. */
  | { readonly op: 'emit'; readonly stream: number }
  /** Geometry: end the current strip of `stream`. */
  | { readonly op: 'cut'; readonly stream: number };

/** A statement: what it does, and where it came from (optional, see Origin). */
export type Stmt = StmtBody & { readonly origin?: Origin };

/** The instruction indices of an origin (none for undefined), ascending. */
export function originList(o: Origin | undefined): readonly number[] {
  return o === undefined ? [] : typeof o === 'number' ? [o] : o;
}

/**
 * `s` with the origin of `from` (a rewrite's new statement standing for an old one), unchanged when
 * `from` has none. `s` must be a fresh statement of the caller's: it is stamped in place, as
 * FunctionBuilder.stmt stamps its own copy (nodes.ts). A copy by spread that adds a key its source
 * lacks (`{ ...s, origin }`) takes V8's slow path, about 0.7 µs a statement against 0.02 µs for a
 * spread that only overrides.
 */
export function withOrigin(s: Stmt, from: Stmt): Stmt {
  return originated(s, from.origin);
}

/** `s` with origin `o` (replacing its own), unchanged for none; `s` must be a fresh statement of the
 * caller's, stamped in place as withOrigin does. */
export function originated(s: Stmt, o: Origin | undefined): Stmt {
  if (o !== undefined) (s as { origin?: Origin }).origin = o;
  return s;
}

/**
 * A copy of `s` with origin `o` (replacing its own), for a statement that may not be the caller's
 * own. Not `{ ...s, origin: o }`: where `s` has no origin that spread adds a key to a clone, and V8
 * then builds a new hidden class each time, in the old generation (about 0.75 µs and 190 bytes, left
 * until a full collection). A copy made by Object.assign onto a literal takes the shared transitions.
 */
export function copyWithOrigin(s: Stmt, o: Origin): Stmt {
  const copy = Object.assign({}, s) as { origin?: Origin };
  copy.origin = o;
  return copy as Stmt;
}

/** The origin holding both origins' indices (ascending, once each); undefined when both are. */
export function mergeOrigins(a: Origin | undefined, b: Origin | undefined): Origin | undefined {
  if (a === undefined || a === b) return b;
  if (b === undefined) return a;
  return originOfIndices(new Set([...originList(a), ...originList(b)]));
}

/** The origin of a set of indices: ascending, one index as a number, none as undefined. */
function originOfIndices(all: ReadonlySet<number>): Origin | undefined {
  const list = [...all].sort((x, y) => x - y);
  return list.length === 0 ? undefined : list.length === 1 ? list[0] : list;
}

/**
 * Origins joined but not yet merged (joinOrigins): a pass that carries origins along values, each
 * value taking those of the values it folds, joins them as nodes and merges them (joinedOrigin) only
 * where a statement takes them. Merging at each join made a new list each time: quadratic along a
 * long chain of folded values (8,000 straight-line instructions: 41% of their decompile).
 */
export class OriginJoin {
  constructor(
    readonly a: PendingOrigin,
    readonly b: PendingOrigin,
  ) {}
}
export type PendingOrigin = Origin | OriginJoin | undefined;

/** `a` and `b` joined: mergeOrigins(a, b) once joinedOrigin merges it. */
export function joinOrigins(a: PendingOrigin, b: PendingOrigin): PendingOrigin {
  if (a === undefined || a === b) return b;
  if (b === undefined) return a;
  return new OriginJoin(a, b);
}

/** The origin a chain of joins stands for: what mergeOrigins over each origin in it would give. */
export function joinedOrigin(p: PendingOrigin): Origin | undefined {
  if (!(p instanceof OriginJoin)) return p;
  const all = new Set<number>();
  const seen = new Set<OriginJoin>();
  const stack: PendingOrigin[] = [p];
  while (stack.length) {
    const x = stack.pop();
    if (x === undefined) continue;
    if (x instanceof OriginJoin) {
      if (seen.has(x)) continue;
      seen.add(x);
      stack.push(x.a, x.b);
    } else for (const i of originList(x)) all.add(i);
  }
  return originOfIndices(all);
}

export interface Function {
  readonly name: string;
  readonly args: readonly FunctionArgument[];
  readonly result?: { readonly type: TypeId; readonly binding?: Binding };
  readonly locals: readonly LocalVariable[];
  readonly lets: readonly LetInfo[];
  readonly exprs: readonly Expr[];
  readonly body: Block;
}

export type ShaderStage = 'vertex' | 'fragment' | 'compute';

export interface EntryPoint {
  readonly name: string;
  readonly stage: ShaderStage;
  readonly function: FunctionId;
  readonly workgroupSize?: readonly [number, number, number];
  /** Fragment: Direct3D's forced early depth/stencil test. */
  readonly earlyFragmentTests?: boolean;
}

export interface Module {
  readonly types: readonly Type[];
  readonly constants: readonly Constant[];
  readonly globals: readonly Global[];
  readonly functions: readonly Function[];
  readonly entryPoints: readonly EntryPoint[];
}

/** The statement kinds blockHolds answers for (bits of its mask). */
export const HOLDS_BARRIER = 1;
export const HOLDS_SUBGROUP = 2;
/** `emit` or `cut` (a geometry program's output). */
export const HOLDS_EMIT = 4;

/**
 * The blocks asked of (blocks are never changed once built) and what each holds, nested blocks
 * included, forgotten when the WGSL emitter is done with a module (forgetBlockHolds). The passes and
 * the emitter ask of every function of a module in turn (an emit? a barrier? a subgroup
 * operation?), so each function is walked once however many the module has (the binding-array pass
 * adds a helper function per range and shape); when HOLDS_KEPT blocks are kept, they are forgotten
 * before the next is kept.
 *
 * Two lists with their slots overwritten when forgotten, not a map. This table lives as long as the
 * library, so it is in the old generation, and V8's young collector takes every slot of an old
 * object that points into the young generation as a root, whether that object is still in use or
 * not. A WeakMap kept every program's function bodies alive and moved them to the old generation
 * (docs/benchmarks.md, the eleventh session); so did the Map that replaced it, through the tables
 * that `clear()` left behind with their entries as they were (the twenty-first session: 430 KB
 * moved to the old generation a young collection over the corpus's programs of under 64
 * instructions, and 1 KB with these lists; lift + WGSL 1.27 times as fast, DXIL 1.32).
 */
const HOLDS_KEPT = 64;
const holdsBlocks: (Block | undefined)[] = new Array<Block | undefined>(HOLDS_KEPT).fill(undefined);
const holdsBits: number[] = new Array<number>(HOLDS_KEPT).fill(0);
let holdsCount = 0;

/**
 * Whether block `b` (its nested blocks included) holds a statement of any of the kinds in `mask`
 * (HOLDS_*: a barrier, a subgroup operation, an emit or cut). The answer for every kind is found in
 * one walk and kept for the block asked of (a function's body, in practice; nested blocks are
 * walked, not kept), so the passes and the emitter that each ask of every function (a barrier? a
 * subgroup operation? an emit?) walk a function's statements once between them.
 */
export function blockHolds(b: Block, mask: number): boolean {
  for (let i = holdsCount - 1; i >= 0; i--) if (holdsBlocks[i] === b) return ((holdsBits[i] as number) & mask) !== 0;
  const bits = holds(b);
  if (holdsCount === HOLDS_KEPT) forgetBlockHolds();
  holdsBlocks[holdsCount] = b;
  holdsBits[holdsCount++] = bits;
  return (bits & mask) !== 0;
}

/** Drops the blocks blockHolds remembers (the WGSL emitter, when it has printed a module): kept
 * past their program, they were copied into the old generation by the next young collection. */
export function forgetBlockHolds(): void {
  holdsBlocks.fill(undefined, 0, holdsCount);
  holdsCount = 0;
}

function holds(b: Block): number {
  let bits = 0;
  for (const s of b) {
    // (a string switch tests its cases in order: the statements nearly all blocks are made of first)
    switch (s.op) {
      case 'store':
      case 'let':
        break;
      case 'barrier':
        bits |= HOLDS_BARRIER;
        break;
      case 'subgroup':
        bits |= HOLDS_SUBGROUP;
        break;
      case 'emit':
      case 'cut':
        bits |= HOLDS_EMIT;
        break;
      case 'if':
        bits |= holds(s.accept) | holds(s.reject);
        break;
      case 'loop':
        bits |= holds(s.body);
        break;
      case 'switch':
        for (const c of s.cases) bits |= holds(c.body);
        break;
      default:
        break;
    }
  }
  return bits;
}
