// lift() for DXIL (Shader Model 6): the DXIL part's LLVM module, its dx.* metadata (entry point,
// signatures, resources) and the entry function's body, as an IR module with the same Program shape
// and conventions as the SM4/5 lifter (lifter-dxbc.md): varyings unpacked per signature element
// row (io.ts), resources as the same globals (resources.ts), Direct3D's results written out
// (inst.ts, ops.ts). SSA values become lets, or function locals when used outside the IR block of
// their definition; phis become locals assigned on their incoming edges; the control-flow graph is
// structured into if/loop/switch (cfg.ts, lower.ts), an irreducible one refused by name.
//
// Vertex, pixel and compute programs are entry points; a vertex program without a position output
// (or with UAVs) is a stage function, as in the SM4/5 lifter. Other stages, libraries, wave and
// raytracing operations are refused by name (UnsupportedError E601 with the reason first).

import { setThreadGroup } from './quad.js';
import { setUsedValues } from './atomic64.js';
import { setDrawStart, setRasterizerSampleCount } from './pipeline.js';
import type { Container } from '../../container/container.js';
import { IridiaError } from '../../errors.js';
import type { LiftOptions, Program, Stage } from '../../ir/program.js';
import type { ExprId, Stmt } from '../../ir/ir.js';
import { fallsThrough } from '../../ir/builder.js';
import { readDxilInfo, type DxilEntryPoint, type DxilInfo } from '../../dxil/dxil-metadata.js';
import { readProgramHeader } from '../../dxil/program-header.js';
import { readModule } from '../../dxil/module.js';
import {
  Constant,
  Func,
  GlobalVar,
  Instruction,
  sameType,
  type Block,
  type Module,
  type Value,
} from '../../dxil/ir.js';
import { DxilLifter, isExpr, listingBases, valueTypeName, type Val } from './lifter.js';
import { DxResources } from './resources.js';
import { IrreducibleError, NestingError, structure, type SNode } from './cfg.js';
import { Lowering } from './lower.js';
import { allocaMemory, gep as gepOf, globalMemory, liftInst } from './inst.js';
import { buildInputs, buildOutputs, type IoElement, type OutputPlan } from './io.js';
import { liftDxOp, type OpContext } from './ops.js';
import { declareHeaps } from './heap.js';
import { liftMeshModule } from './mesh.js';
import { liftStageProgram } from './stage.js';
import { inlineCall, inlineTree, withCallees, type InlineExit } from './calls.js';

const STAGES: Readonly<Record<string, Exclude<Stage, 'mesh' | 'amplification'>>> = {
  vs: 'vertex',
  ps: 'pixel',
  cs: 'compute',
  hs: 'hull',
  ds: 'domain',
  gs: 'geometry',
};

/** Functions of more blocks or instructions than this are refused (a bound on the lifter's work). */
const MAX_BLOCKS = 65536;
const MAX_INSTRUCTIONS = 1 << 20;

/** Whether a container holds a DXIL program the DXIL lifter reads. */
export function hasDxilProgram(c: Container): boolean {
  return c.parts.some((p) => p.kind === 'DXIL' || p.kind === 'ILDB');
}

export function liftDxilContainer(c: Container, options: LiftOptions = {}): Program {
  const part = c.parts.find((p) => p.kind === 'DXIL') ?? c.parts.find((p) => p.kind === 'ILDB');
  if (!part) throw new IridiaError('E108_PART_MISSING', 'the container has no DXIL part', {});
  const header = readProgramHeader(part.data, part.kind, part.offset + 8);
  const offset = part.offset + 8 + header.bitcodeStart;
  const m = readModule(header.bitcode, { part: part.kind, offset });
  return liftModule(m, part.kind, offset, options);
}

export function liftModule(m: Module, partKind: string, offset: number, options: LiftOptions = {}): Program {
  const info = readDxilInfo(m);
  const kind = info.shaderKind ?? '';
  const target = `${kind}_${info.shaderMajor}_${info.shaderMinor}`;
  // a lifter only to refuse with (made when one is refused: most programs never need it)
  const fail = (): DxilLifter => new DxilLifter('compute', partKind, offset);
  if (kind === 'lib')
    return fail().refuse('shader library', `${target}: a library of entry points (raytracing or node shaders)`);
  if (kind === 'ms' || kind === 'as')
    return liftMeshModule(m, info, kind, target, partKind, offset, options, { liftBody, declareGlobals });
  const stage = STAGES[kind];
  if (!stage) return fail().refuse('no program', `shader kind '${kind}'`);
  const ep = info.entryPoints[0];
  const fn = ep?.function;
  if (!ep || !(fn instanceof Func) || fn.isProto) return fail().invalid('dx.entryPoints names no function with a body');
  if (stage === 'hull' || stage === 'domain' || stage === 'geometry')
    return liftStageProgram(m, info, ep, fn, stage, target, partKind, offset, options, { liftBody, declareGlobals });
  const L = new DxilLifter(stage, partKind, offset);
  L.originBases = listingBases(m.functions);
  setDrawStart(L, options.startVertexLocation, options.startInstanceLocation);
  L.fnName = fn.name ?? 'main';
  // Native 16-bit types (dxc -enable-16bit-types: shader flag UseNativeLowPrecision, bit 23).
  L.native16 = (ep.shaderFlags & (1n << 23n)) !== 0n;
  const resources = new DxResources(L, info, options.unboundedCount ?? 16, L.native16);
  const fns = withCallees([fn]);
  resources.declareAll(fns);
  declareHeaps(L, resources, fns, options.unboundedCount ?? 16);
  declareGlobals(L, m, info, fns);

  const entry = true;
  const inputs = buildInputs(L, ep.inputs, entry);
  const outPlan = buildOutputs(L, ep.outputs, entry);
  const writableInVertex = stage === 'vertex' && resources.list.some((r) => r.registerClass === 'u');
  const asFunctions = stage === 'vertex' && (!outPlan.hasPosition || writableInVertex);
  if (stage === 'vertex' && !outPlan.hasPosition)
    L.note('a vertex program without a position output feeds a later stage: it is lifted as a stage function');
  else if (writableInVertex)
    L.note(
      'a vertex program with UAVs is lifted as a stage function (WebGPU has no writable storage in vertex programs)',
    );

  const ctx: OpContext = {
    resources,
    inputs: inputs.inputs,
    outputs: outPlan.outputs,
    builtins: new Map(),
    stageIo: undefined,
    meshIo: undefined,
  };
  if (stage === 'compute') setThreadGroup(L, threadGroup(L, ep), [info.shaderMajor, info.shaderMinor]);
  setRasterizerSampleCount(L, options.rasterizerSampleCount);
  const count = liftBody(L, fn, ctx, outPlan);
  const fnId = L.m.addFunction(L.f.finish(outPlan.type !== undefined ? { type: outPlan.type } : undefined));
  if (!asFunctions) {
    L.m.entryPoints.push({
      name: 'main',
      stage: stage === 'pixel' ? 'fragment' : stage,
      function: fnId,
      ...(stage === 'compute' ? { workgroupSize: threadGroup(L, ep) } : {}),
      ...(stage === 'pixel' && ep.shaderFlags & (1n << 3n) ? { earlyFragmentTests: true } : {}),
    });
  }
  return {
    stage,
    interface: { inputs: inputs.varyings, outputs: outPlan.varyings, patchConstants: [], resources: resources.list },
    provenance: { target, bytecode: 'DXIL', part: partKind, instructions: count },
    notes: L.notes,
    module: L.m.finish(),
    ...(asFunctions ? { stageFunctions: { main: fnId, patchConstant: [] } } : {}),
  };
}

function threadGroup(L: DxilLifter, ep: DxilEntryPoint): [number, number, number] {
  const [x, y, z] = ep.numThreads ?? L.invalid('a compute program without numthreads');
  if (x * y * z === 0 || x * y * z > 1024 || z > 64) L.invalid(`thread group ${x}x${y}x${z}`);
  return [x, y, z];
}

/** Groupshared and static globals as IR memory (atomic when an atomic instruction uses them). */
function declareGlobals(L: DxilLifter, m: Module, info: DxilInfo, fn: Func | readonly Func[]): void {
  const fns = fn instanceof Func ? [fn] : fn; // a hull program: the entry and its patch-constant function
  // The globals that may be memory: private or groupshared, neither a resource's symbol (libraries,
  // older modules: the symbol is the resource) nor a handle global. Most modules have none, and
  // then their instructions are not walked.
  const resourceSymbols = new Set<Value | undefined>(
    [...info.cbuffers, ...info.srvs, ...info.samplers, ...info.uavs].map((r) => r.symbol),
  );
  const candidates = m.globals.filter((g) => {
    const space = g.type.addrSpace;
    if (space !== 0 && space !== 3) return false;
    if (resourceSymbols.has(g)) return false;
    const vt = g.valueType;
    return !(vt.kind === 'struct' && vt.name?.startsWith('dx.types.'));
  });
  if (candidates.length === 0) return installConstantPointer(L);
  const atomic = new Set<Value>();
  const root = (v: Value | undefined): Value | undefined => {
    for (let k = 0; k < 8 && v; k++) {
      if (v instanceof GlobalVar) return v;
      if (v instanceof Instruction && (v.op === 'gep' || v.op === 'cast')) v = v.ops[0];
      else if (v instanceof Constant && (v.ck === 'ce-gep' || v.ck === 'ce-cast')) v = v.ops[0];
      else return undefined;
    }
    return undefined;
  };
  // Only the globals the function uses (resource symbols and unused statics are left out).
  const used = new Set<Value>();
  const visit = (v: Value | undefined, depth: number) => {
    if (!v || depth > 8) return;
    if (v instanceof GlobalVar) used.add(v);
    else if (v instanceof Constant && v.ck.startsWith('ce-')) for (const o of v.ops) visit(o, depth + 1);
  };
  for (const f of fns)
    for (const b of f.blocks)
      for (const i of b.insts) {
        if (i.op === 'atomicrmw' || i.op === 'cmpxchg') {
          const g = root(i.ops[0]);
          if (g) atomic.add(g);
        }
        for (const o of i.ops) if (o instanceof GlobalVar || o instanceof Constant) visit(o, 0);
      }
  let k = 0;
  for (const g of candidates) if (used.has(g)) L.memories.set(g, globalMemory(L, g, k++, atomic.has(g)));
  installConstantPointer(L);
}

/** Constant expressions on memory: getelementptr and pointer casts of a global, with constant indices. */
function installConstantPointer(L: DxilLifter): void {
  L.constantPointer = constantPointer;
}

/** L.constantPointer once globals are declared (a shared function, not a closure: see the field). */
function constantPointer(this: DxilLifter, c: Constant): Val {
  if (c.ck === 'ce-cast') {
    const v = this.val(c.ops[0]!);
    if (!isExpr(v) && v.kind === 'ptr' && c.type.kind === 'ptr') return { ...v, type: c.type.elt! };
    return v;
  }
  if (c.ck === 'ce-gep') {
    const base = c.ops[0]!;
    const src = c.srcType ?? (base.type.kind === 'ptr' ? base.type.elt : undefined);
    if (!src) return this.invalid('a constant getelementptr without its type');
    return gepOf(this, this.val(base), src, c.ops.slice(1));
  }
  return this.refuse('instruction not handled', `a constant ${c.ck} expression`);
}

/**
 * Lifts the entry function's body into L.f; returns the number of LLVM instructions. With `inline`,
 * the body is a called function's, lifted where it is called (calls.ts): its returns go to `inline`.
 */
function liftBody(
  L: DxilLifter,
  fn: Func,
  ctx: OpContext,
  outPlan: Pick<OutputPlan, 'build'>,
  inline?: InlineExit,
): number {
  const blocks = fn.blocks;
  if (blocks.length === 0) return L.invalid('an entry function without blocks');
  if (blocks.length > MAX_BLOCKS) return L.refuse('instruction not handled', `a function of ${blocks.length} blocks`);
  let total = 0;
  const succs = blocks.map((b, k) => {
    total += b.insts.length;
    const t = b.insts[b.insts.length - 1];
    if (!t) return L.invalid(`block ${k} has no terminator`);
    for (const s of t.blocks)
      if (s < 0 || s >= blocks.length) L.invalid(`block ${k} branches to block ${s}, not in the function`);
    if (t.op === 'br' || t.op === 'switch') return [...t.blocks];
    if (t.op === 'ret' || t.op === 'unreachable') return [];
    return L.invalid(`block ${k} ends in ${t.op}, not a terminator`);
  });
  if (total > MAX_INSTRUCTIONS) return L.refuse('instruction not handled', `a function of ${total} instructions`);
  const term = (b: number) =>
    blocks[b]!.insts[blocks[b]!.insts.length - 1]!.op as 'br' | 'switch' | 'ret' | 'unreachable';
  L.originBase = L.originBases.get(fn) ?? 0;
  let tree: SNode[];
  try {
    tree = structure({ succs }, term).body;
    if (inline) tree = inlineTree(tree, blocks.length);
  } catch (e) {
    if (e instanceof IrreducibleError) return L.refuse('irreducible control flow', e.message);
    if (e instanceof NestingError) return L.refuse('instruction not handled', e.message);
    // The structuring recurses as deep as the constructs nest (a run of them one after another is a
    // loop): constructs nested thousands deep overflow the stack, which is a refusal, not a crash.
    if (e instanceof RangeError && /call stack/i.test(e.message))
      return L.refuse(
        'instruction not handled',
        `control flow nested too deeply to structure (${blocks.length} blocks)`,
      );
    throw e;
  }
  // Instruction numbering (errors name it): each block's first number, and each instruction's.
  // (and whether there is a phi or an alloca: the passes for them below are left out without one)
  // An instruction's number is kept in its `slot` (as the printer keeps its text's), and holds while
  // `order` has the instruction at that number: a Map of every instruction was a ninth of the Map and
  // Set allocation of DXIL lift + WGSL (docs/benchmarks.md, issue 17's thirteenth session).
  const order: Instruction[] = [];
  const starts: number[] = [];
  let n = 0;
  let phis = false;
  let hasAlloca = false;
  for (const b of blocks) {
    starts.push(n);
    for (const i of b.insts) {
      i.slot = n;
      order[n++] = i;
      const op = i.op;
      if (op === 'phi') phis = true;
      else if (op === 'alloca') hasAlloca = true;
    }
  }
  /** An instruction's number in this function (undefined: another function's). */
  const position = (i: Instruction): number | undefined => {
    const p = i.slot;
    return p >= 0 && order[p] === i ? p : undefined;
  };
  /** The block an instruction of the function is in (every block holds one at least: its terminator). */
  const blockOf = (i: Instruction): number | undefined => {
    const p = position(i);
    if (p === undefined) return undefined;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= p) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  // Phi checks: each incoming block is a predecessor, each predecessor has an entry.
  let preds: number[][] | undefined; // made at the first phi: each block's predecessors, ascending
  if (phis)
    blocks.forEach((b, k) => {
      for (const i of b.insts) {
        if (i.op !== 'phi') continue;
        L.ins = i;
        L.insIndex = position(i)!;
        for (const p of i.blocks)
          if (p < 0 || p >= blocks.length) L.invalid(`a phi's incoming block ${p} is not in the function`);
        if (!preds) {
          const lists: number[][] = blocks.map(() => []);
          succs.forEach((list, p) => {
            for (const t of list) if (lists[t]!.at(-1) !== p) lists[t]!.push(p);
          });
          preds = lists;
        }
        for (const p of preds[k]!)
          if (!i.blocks.includes(p)) L.invalid(`a phi has no value for its predecessor block ${p}`);
        // LLVM's rule: every incoming value is of the phi's type (its local is made of that type)
        i.ops.forEach((v, j) => {
          if (!sameType(v.type, i.type))
            L.invalid(
              `a phi of ${valueTypeName(i.type)} has an incoming ${valueTypeName(v.type)} from block ${i.blocks[j] ?? '?'}`,
            );
        });
      }
    });
  L.ins = undefined;
  const used = new Set<Value>(); // crossScope's walk of the operands fills it
  L.crossScope = crossScope(tree, blocks, blockOf, used);

  // Allocas (of the entry block, or anywhere) are function-local arrays made up front.
  let allocas = 0;
  if (hasAlloca)
    for (const b of blocks)
      for (const i of b.insts)
        if (i.op === 'alloca') {
          L.ins = i;
          L.insIndex = position(i)!;
          L.values.set(i, { kind: 'ptr', mem: allocaMemory(L, i, allocas++), offset: L.u32(0), type: i.explicitType! });
        }
  // Phis: one local each (a vector phi: one a lane).
  const phiLocal = new Map<Instruction, number[]>();
  if (phis)
    for (const b of blocks)
      for (const i of b.insts)
        if (i.op === 'phi') {
          L.ins = i;
          L.insIndex = position(i)!;
          const name = `phi${phiLocal.size}`;
          if (i.type.kind === 'vector') {
            const t = L.irType(L.laneType(i.type));
            phiLocal.set(
              i,
              Array.from({ length: i.type.count }, (_, k) => L.f.local(`${name}_${k}`, t)),
            );
          } else phiLocal.set(i, [L.f.local(name, L.irType(i.type))]);
        }
  L.ins = undefined;

  const ret = (): Stmt => {
    const value = outPlan.build();
    return value === undefined ? { op: 'return' } : { op: 'return', value };
  };
  setUsedValues(L, used);
  const lowering = new Lowering(L, {
    code: (k) => {
      const b = blocks[k]!;
      const start = starts[k]!;
      for (let j = 0; j < b.insts.length; j++) {
        const i = b.insts[j]!;
        L.ins = i;
        L.insIndex = start + j;
        if (i.op === 'phi') {
          const locals = phiLocal.get(i)!.map((l) => L.load(L.local(l)));
          L.define(i, i.type.kind === 'vector' ? { kind: 'vec', lanes: locals } : locals[0]!, `p${L.insIndex}`);
          continue;
        }
        if (i === b.insts[b.insts.length - 1]) break;
        if (i.op === 'alloca') continue;
        if (L.f.unreachable()) break;
        const v = i.op === 'call' ? liftCall(L, i, ctx, outPlan) : liftInst(L, i);
        if (v !== undefined && used.has(i)) L.define(i, v, `v${L.insIndex}`);
      }
      L.ins = undefined;
    },
    edge: (from, to) => {
      if (inline && to === blocks.length) {
        // the inlined body returns: its result set, then the call's end (calls.ts)
        const t = blocks[from]!.insts[blocks[from]!.insts.length - 1]!;
        L.ins = t;
        L.insIndex = position(t)!;
        if (t.op === 'ret') inline.onReturn(t);
        L.ins = undefined;
        return;
      }
      if (!phis) return; // no phi in the function: no copies on any edge
      const target = blocks[to]!;
      const targetPhis = target.insts.filter((i) => i.op === 'phi');
      if (!targetPhis.length) return;
      const stores: [number, ExprId][] = [];
      const parallel = targetPhis.length > 1 || targetPhis.some((p) => p.type.kind === 'vector');
      for (const p of targetPhis) {
        L.ins = p;
        L.insIndex = position(p)!;
        const k = p.blocks.indexOf(from);
        if (k < 0) return L.invalid(`a phi has no value for its predecessor block ${from}`);
        const v = p.type.kind === 'vector' ? L.lanes(p.ops[k]!) : [L.num(p.ops[k]!)];
        const locals = phiLocal.get(p)!;
        v.forEach((x, j) => stores.push([locals[j]!, parallel ? L.once(x, 'incoming') : x]));
      }
      for (const [local, value] of stores) L.f.store(L.local(local), value);
      L.ins = undefined;
    },
    condition: (k) => {
      const t = blocks[k]!.insts[blocks[k]!.insts.length - 1]!;
      L.ins = t;
      L.insIndex = position(t)!;
      const c = L.num(t.ops[0]!);
      L.ins = undefined;
      return c;
    },
    switchOf: (k) => {
      const t = blocks[k]!.insts[blocks[k]!.insts.length - 1]!;
      L.ins = t;
      L.insIndex = position(t)!;
      const sel = t.ops[0]!;
      if (sel.type.kind !== 'int' || (sel.type.width > 32 && sel.type.width !== 64))
        L.refuse('64-bit integers', `a switch on an i${sel.type.width} value`);
      // an i64 selector: each distinct case value numbered 0.., the selector the number of the first
      // value it equals (both words compared), or the count (no case: the default)
      const wide = sel.type.width === 64;
      const wideValues: bigint[] = [];
      if (wide)
        for (const c of t.cases) {
          if (!(c instanceof Constant) || c.ck !== 'int') L.invalid('a switch case value is not a constant');
          const v = BigInt.asUintN(64, c.bits);
          if (!wideValues.includes(v)) wideValues.push(v);
        }
      let selector: ExprId;
      if (wide) {
        const x = L.once(L.num(sel), 'selector');
        selector = L.u32(wideValues.length);
        for (let k = wideValues.length - 1; k >= 0; k--) {
          const v = L.words64(wideValues[k]!);
          const eq = L.bin('and', L.bin('eq', L.swz(x, [0]), L.swz(v, [0])), L.bin('eq', L.swz(x, [1]), L.swz(v, [1])));
          selector = L.sel(eq, L.u32(k), selector);
        }
      } else selector = L.u(sel);
      const caseValue = (c: Value): number =>
        wide && c instanceof Constant && c.ck === 'int'
          ? wideValues.indexOf(BigInt.asUintN(64, c.bits))
          : L.imm(c, 'a switch case value');
      const cases = new Map<number, { values: number[]; isDefault: boolean }>();
      const at = (b: number) => {
        let c = cases.get(b);
        if (!c) cases.set(b, (c = { values: [], isDefault: false }));
        return c;
      };
      at(t.blocks[0]!).isDefault = true;
      t.cases.forEach((c, j) => at(t.blocks[j + 1]!).values.push(caseValue(c)));
      // a value listed twice goes to its first case (LLVM refuses duplicates; a validator would too)
      const seen = new Set<number>();
      for (const c of cases.values()) c.values = c.values.filter((v) => (seen.has(v) ? false : (seen.add(v), true)));
      L.ins = undefined;
      return { selector, cases };
    },
    terminator: (k) => {
      const t = blocks[k]!.insts[blocks[k]!.insts.length - 1]!;
      L.insIndex = position(t)!;
    },
    ret,
  });
  lowering.run(tree);
  L.insIndex = -1; // the implicit return at the end is the lifter's own
  if (!inline && fallsThrough(L.f.openBlock())) L.f.stmt(ret());
  return total;
}

/**
 * Values used outside the IR block that holds their definition: each node of the tree gets the
 * chain of IR blocks it is in, and a use must be in the definition's chain (a phi's use is where
 * its incoming edge is translated). `used` gets every instruction some instruction uses (only
 * instructions are asked about: constants, globals and arguments, most operands, are left out).
 */
function crossScope(
  tree: readonly SNode[],
  blocks: readonly Block[],
  blockOf: (i: Instruction) => number | undefined,
  used: Set<Value>,
): Set<Instruction> {
  // by block, and by edge (from * (n + 1) + to; an inlined body's return edge goes to block n):
  // numbers, not texts, as keys
  const n = blocks.length;
  const codeChain: (number[] | undefined)[] = new Array<number[] | undefined>(n).fill(undefined);
  const edgeChain = new Map<number, number[]>();
  let next = 1;
  const walk = (list: readonly SNode[], chain: number[]) => {
    for (const s of list) {
      switch (s.k) {
        case 'code':
          codeChain[s.block] = chain;
          break;
        case 'edge':
        case 'jump':
          edgeChain.set(s.from * (n + 1) + s.to, chain);
          break;
        case 'if':
          walk(s.accept, [...chain, next++]);
          walk(s.reject, [...chain, next++]);
          break;
        case 'switch':
          for (const c of s.cases) walk(c.body, [...chain, next++]);
          break;
        case 'loop':
        case 'block':
          walk(s.body, [...chain, next++]);
          break;
        case 'return':
        case 'unreachable':
          break;
      }
    }
  };
  walk(tree, [0]);
  const within = (inner: number[] | undefined, outer: number[] | undefined): boolean => {
    if (!inner || !outer) return true; // unreachable code: never lifted
    if (outer.length > inner.length) return false;
    for (let k = 0; k < outer.length; k++) if (inner[k] !== outer[k]) return false;
    return true;
  };
  const cross = new Set<Instruction>();
  for (let k = 0; k < n; k++) {
    const here = codeChain[k];
    for (const u of blocks[k]!.insts) {
      const ops = u.ops;
      const phi = u.op === 'phi';
      for (let j = 0; j < ops.length; j++) {
        const o = ops[j]!;
        if (!(o instanceof Instruction)) continue;
        used.add(o);
        const d = blockOf(o);
        if (d === undefined) continue;
        const defChain = codeChain[d];
        // (an operand without its incoming block has no edge)
        const useChain = phi ? edgeChain.get((u.blocks[j] ?? NaN) * (n + 1) + k) : here;
        if (!within(useChain, defChain)) cross.add(o);
      }
    }
  }
  return cross;
}

function liftCall(L: DxilLifter, i: Instruction, ctx: OpContext, outPlan: Pick<OutputPlan, 'build'>) {
  const name = i.callee?.name ?? '';
  if (name.startsWith('dx.op.')) return liftDxOp(L, i, ctx);
  if (name.startsWith('llvm.dbg.') || name.startsWith('llvm.lifetime.')) return undefined;
  const callee = i.callee;
  if (callee instanceof Func && !callee.isProto)
    return inlineCall(L, i, callee, (L2, f, exit) => liftBody(L2, f, ctx, outPlan, exit));
  return L.refuse('function calls', `a call of the declaration @${name}`);
}

export type { IoElement };
