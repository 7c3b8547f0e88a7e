// A lifted program: the IR module (ir.ts) with its stage, its interface (signature elements and
// resources, each with where it came from in Direct3D), the provenance of the lift and the notes
// (every approximation the lifter made). Spec: ../shared/spec/lifter-dxbc.md, "lift(bytes)".

import type { FunctionId, GlobalId, Module } from './ir.js';
import type { Ifce } from '../parts/ifce.js';

export type Stage = 'vertex' | 'pixel' | 'compute' | 'hull' | 'domain' | 'geometry' | 'mesh' | 'amplification';

/** One signature element as an entry argument or result member. */
export interface Varying {
  /** The argument's or member's name in the IR (and WGSL). */
  readonly name: string;
  readonly semantic: string;
  readonly semanticIndex: number;
  /** The Direct3D register (v# or o#) and the lanes (mask, bit 0 = x) the element occupies. */
  readonly register: number;
  readonly mask: number;
  /** D3D_NAME system value (0 none). */
  readonly systemValue: number;
  /** 1 uint, 2 sint, 3 float (D3D_REGISTER_COMPONENT_TYPE). */
  readonly componentType: number;
  /** WGSL location, or the builtin's name. */
  readonly location?: number;
  /** A geometry program's output of a stream other than 0 (absent: stream 0). Each stream's
   * elements are packed into the output registers on their own (two streams may share a register). */
  readonly stream?: number;
  readonly builtin?: string;
}

export interface ConstantField {
  readonly name: string;
  /** Byte offset in the buffer. */
  readonly offset: number;
  readonly size: number;
}

export type ResourceKind =
  | {
      readonly kind: 'constantBuffer';
      readonly rows: number;
      readonly layout: { readonly constants: readonly ConstantField[] };
    }
  | { readonly kind: 'texture'; readonly dimension: string; readonly returnType: string }
  | { readonly kind: 'buffer'; readonly view: 'typed' | 'raw' | 'structured'; readonly stride?: number }
  | { readonly kind: 'sampler'; readonly comparison: boolean }
  | {
      readonly kind: 'uav';
      readonly view: 'typed' | 'raw' | 'structured';
      readonly dimension: string;
      readonly stride?: number;
      /** A typed texture view used atomically, held as a storage buffer of one word a texel
       * (lift/texels.ts): words 0-2 its width, height and depth-or-layers, which the caller writes;
       * texel (x, y, z) at word 4 + x + width * (y + height * z). */
      readonly texels?: true;
      /** Words a texel of a texel view, or an element of a typed buffer view, holds: 2 for a view a
       * 64-bit atomic uses (an R32G32_UINT format: the low word first; a texel view's texel
       * (x, y, z) at word 4 + 2 (x + width * (y + height * z))); absent: 1. */
      readonly elementWords?: 2;
      /** A multisampled texel view (RWTexture2DMS[Array]): its declared sample count (header word 3). */
      readonly samples?: number;
    }
  | { readonly kind: 'groupshared'; readonly bytes: number };

/**
 * A UAV's hidden counter (append/consume buffers, IncrementCounter/DecrementCounter): one
 * `atomic<u32>` in a storage binding of its own, in the UAV's group at binding
 * COUNTER_BINDING_OFFSET + the UAV's binding (a range's element k at that + k, a binding array of
 * counters beside the range). Both lifters bind it alike, so a DXBC and a DXIL build of one HLSL
 * take the same counter. Its value is the caller's: Direct3D sets it when the view is bound (the
 * UAV counter's initial value); a caller binds one u32 word holding it and reads it back after the
 * run. Seeded runs (src/exec/seed.ts) start it at SEED_COUNTER.
 */
export interface HiddenCounter {
  /** The counter global's name in the IR and WGSL (the UAV's name + "_counter"). */
  readonly name: string;
  readonly global: GlobalId;
  readonly group: number;
  readonly binding: number;
}

/** Bindings a UAV's hidden counter is placed above its view (see HiddenCounter). */
export const COUNTER_BINDING_OFFSET = 512;

export interface Resource {
  /** The global's name in the IR and WGSL. */
  readonly name: string;
  readonly global: GlobalId;
  /** Reflection's name for it when the container has an RDEF, else empty. */
  readonly reflectedName: string;
  /** Direct3D register class letter (b, t, s, u, g), first register and count (null: unbounded). */
  readonly registerClass: string;
  readonly register: number;
  readonly count: number | null;
  readonly space: number;
  /** SM5.1 range id (the declaration's id); for SM4/5.0 the register. */
  readonly id: number;
  readonly group: number;
  readonly binding: number;
  readonly kind: ResourceKind;
  /** A UAV with a hidden counter: where the counter is bound. */
  readonly counter?: HiddenCounter;
}

export interface Interface {
  readonly inputs: readonly Varying[];
  readonly outputs: readonly Varying[];
  readonly patchConstants: readonly Varying[];
  readonly resources: readonly Resource[];
  /** SM5.0 class interfaces: how the caller binds class instances (src/lift/interfaces.ts). */
  readonly classLinkage?: ClassLinkage;
}

/** One `dcl_interface fp#[arraySize][callSites] = {ft...}`. */
export interface InterfaceDecl {
  /** fp#: also its first slot. */
  readonly fp: number;
  readonly arraySize: number;
  readonly callSites: number;
  /** The function tables an instance bound to it may select. */
  readonly tables: readonly number[];
}

/**
 * What a caller needs to bind class instances as Direct3D's ClassLinkage does: the uniform buffer
 * `iface` of 2 × slots rows (row s: this[s] = constant-buffer register, first row, first texture,
 * first sampler of the instance bound to slot s; row slots + s, lane x: the function table id it
 * selects, any other value calling nothing), the interfaces and tables the program declares, and
 * the IFCE part's instances and slot records (classLinkageWords in src/lift/interfaces.ts turns
 * instance names into the rows).
 */
export interface ClassLinkage {
  readonly group: number;
  readonly binding: number;
  readonly slots: number;
  readonly interfaces: readonly InterfaceDecl[];
  /** dcl_function_table: each table's function bodies, by call site. */
  readonly tables: Readonly<Record<number, readonly number[]>>;
  readonly ifce?: Ifce;
  /** `cbi`: where instance data is read when this[].x names a constant-buffer register the program
   * does not declare (one buffer for every such register; 4096 rows). */
  readonly instanceBuffer?: { readonly group: number; readonly binding: number };
}

export interface Provenance {
  /** e.g. "ps_5_0". */
  readonly target: string;
  /** 'DXBC'. */
  readonly bytecode: string;
  /** The program part read: SHDR or SHEX. */
  readonly part: string;
  readonly instructions: number;
}

/** A stage that is not a WGSL entry point: functions the executor runs (spec: stage_functions). */
export interface StageFunctions {
  /** The main function (vertex, hull control-point phase, domain or geometry program); -1 for a
   * hull program without a control-point phase (its input control points pass through). */
  readonly main: FunctionId;
  /** Hull: the patch-constant phases in order (fork and join phases). */
  readonly patchConstant: readonly FunctionId[];
  /** Hull: how many instances each patch-constant phase runs (dcl_hs_fork/join_phase_instance_count,
   * 1 where a phase declares none), one per entry of `patchConstant`. */
  readonly phaseInstances?: readonly number[];
  readonly inputControlPoints?: number;
  readonly outputControlPoints?: number;
  readonly maxVertexCount?: number;
  readonly instanceCount?: number;
  readonly primitive?: string;
  readonly domain?: string;
  /** Hull: the tessellator's partitioning (dcl_tessellator_partitioning): 'integer', 'pow2',
   * 'fractional_odd' or 'fractional_even'. */
  readonly partitioning?: string;
  /** Hull: the tessellator's output primitive (dcl_tessellator_output_primitive): 'point', 'line',
   * 'triangle_cw' or 'triangle_ccw'. */
  readonly tessellatorOutput?: string;
  /** Hull: dcl_hs_max_tessfactor, the float's bits. */
  readonly maxTessFactor?: number;
  /** Mesh and amplification: the thread group (numthreads), one lane per thread. */
  readonly threadGroup?: readonly [number, number, number];
  /** Mesh: the most primitives (maxVertexCount above is the most vertices). */
  readonly maxPrimitiveCount?: number;
  /** Mesh: the primitives' topology (outputtopology). */
  readonly outputTopology?: 'triangle' | 'line';
  /** Mesh: the payload read (GetMeshPayload); amplification: the payload DispatchMesh passes. */
  readonly payloadBytes?: number;
}

export interface Program {
  readonly stage: Stage;
  readonly interface: Interface;
  readonly provenance: Provenance;
  /** Every approximation and every caller obligation (non-uniform indices, bound sizes...). */
  readonly notes: readonly string[];
  readonly module: Module;
  /** Present for stages lifted as functions instead of an entry point. */
  readonly stageFunctions?: StageFunctions;
}

export interface LiftOptions {
  /** Rows each constant buffer is bound with, by slot (`lift_with`): reads past the declared size
   * up to this many rows are then in range. Key: the cb register (or SM5.1 range id). */
  readonly boundSizes?: Readonly<Record<number, number>>;
  /** Bindings given to an unbounded SM5.1 range (default 16). */
  readonly unboundedCount?: number;
  /** The pipeline's rasterizer sample count (1, 2, 4, 8 or 16; default 1), which the program does
   * not carry: what `sampleinfo`/`samplepos` of the rasterizer and DXIL's
   * RenderTargetGetSampleCount/RenderTargetGetSamplePosition give (Direct3D's standard pattern). */
  readonly rasterizerSampleCount?: number;
  /** The draw's start vertex and start instance (default 0 each), which the program does not carry:
   * Direct3D's StartVertexLocation (DrawInstanced's; DrawIndexedInstanced's BaseVertexLocation) and
   * StartInstanceLocation. WGSL's vertex_index and instance_index include them (WebGPU's
   * firstVertex or baseVertex, and firstInstance: draw with these same values), Direct3D's
   * SV_VertexID and SV_InstanceID do not, so a vertex program's SV_VertexID is vertex_index -
   * startVertexLocation and its SV_InstanceID instance_index - startInstanceLocation (both
   * lifters), and Shader Model 6.8's StartVertexLocation()/StartInstanceLocation() are these
   * constants (noted in the program's notes when a program reads them). With the default 0 the
   * lifted program is right for draws whose firstVertex/baseVertex and firstInstance are 0. */
  readonly startVertexLocation?: number;
  readonly startInstanceLocation?: number;
}
