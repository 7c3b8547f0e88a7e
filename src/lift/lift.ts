// lift(bytes) for DXBC (lifter-dxbc.md): reads a container's SHEX/SHDR program, its signatures and
// RDEF, and lifts the program into an IR module with its interface, provenance and notes. Vertex,
// pixel and compute programs become WGSL-style entry points; hull, domain and geometry programs
// (and a vertex program without a position output, which feeds a tessellator or a geometry
// program) become stage functions the executor runs (see stage.ts).

import { parseContainer, type Container } from '../container/container.js';
import { IridiaError } from '../errors.js';
import type { Program, LiftOptions, Stage } from '../ir/program.js';
import { readRdef, type Rdef } from '../parts/rdef.js';
import { readIfce, type Ifce } from '../parts/ifce.js';
import { readSignature, isSignatureKind, type Signature, type SignatureKind } from '../parts/signature.js';
import { decodeProgram } from '../sm4/decode.js';
import type { Instruction, Program as TokenProgram } from '../sm4/types.js';
import { ALU, type Handler } from './alu.js';
import { Flow, fallsThrough } from './flow.js';
import { buildInputs, buildOutputs, checkIoDecl, ioDecl, type IoDecl } from './io.js';
import { MEMORY } from './memory.js';
import { LOD } from './lod.js';
import { EVAL } from './eval.js';
import { DOUBLE_OPS } from './double.js';
import { refuse } from './refuse.js';
import { Resources, scanUsage } from './resources.js';
import { Lifter } from './state.js';
import { liftStage } from './stage.js';
import { Subroutines } from './subroutines.js';
import { liftPerBinding } from './interfaces.js';
import { hasDxilProgram, liftDxilContainer } from './dxil/lift.js';
import type { Stmt } from '../ir/ir.js';

const STAGES: Readonly<Record<string, Stage>> = {
  vs: 'vertex',
  ps: 'pixel',
  cs: 'compute',
  hs: 'hull',
  ds: 'domain',
  gs: 'geometry',
};

/** Lifts a container (bytes) to a Program: SM4/5 (SHEX/SHDR) here, DXIL in dxil/lift.ts. Refusals are
 * UnsupportedError E601. */
export function lift(bytes: Uint8Array, options: LiftOptions = {}): Program {
  return liftContainer(parseContainer(bytes), options);
}

function signature(c: Container, kinds: readonly SignatureKind[]): Signature | undefined {
  for (const k of kinds) {
    const p = c.parts.find((x) => x.kind === k);
    if (p && isSignatureKind(p.kind)) return readSignature(p.kind, p.data, p.offset + 8);
  }
  return undefined;
}

export function liftContainer(c: Container, options: LiftOptions = {}): Program {
  const part = c.parts.find((p) => p.kind === 'SHEX') ?? c.parts.find((p) => p.kind === 'SHDR');
  if (!part && hasDxilProgram(c)) return liftDxilContainer(c, options);
  if (!part) return refuse('no program', 'the container has no SHEX, SHDR or DXIL part');
  const tokens = decodeProgram(part.data, part.kind);
  const rdefPart = c.parts.find((p) => p.kind === 'RDEF');
  let rdef: Rdef | undefined;
  if (rdefPart) {
    try {
      rdef = readRdef(rdefPart.data, rdefPart.offset + 8);
    } catch (e) {
      if (!(e instanceof IridiaError)) throw e;
      rdef = undefined;
    }
  }
  const ifcePart = c.parts.find((p) => p.kind === 'IFCE');
  let ifce: Ifce | undefined;
  if (ifcePart) {
    try {
      ifce = readIfce(ifcePart.data, ifcePart.offset + 8);
    } catch (e) {
      if (!(e instanceof IridiaError)) throw e;
      ifce = undefined;
    }
  }
  const inSig = signature(c, ['ISG1', 'ISGN']);
  const outSig = signature(c, ['OSG1', 'OSG5', 'OSGN']);
  const pcSig = signature(c, ['PSG1', 'PCSG']);
  return liftTokens(tokens, part.kind, { inSig, outSig, pcSig, rdef, ...(ifce ? { ifce } : {}) }, options);
}

interface Parts {
  readonly inSig: Signature | undefined;
  readonly outSig: Signature | undefined;
  readonly pcSig: Signature | undefined;
  readonly rdef: Rdef | undefined;
  /** The class linkage part (class interfaces). */
  readonly ifce?: Ifce;
}

/**
 * Lifts a decoded program, taking `tokens` over: the caller's body instructions (before the first
 * label) are dropped from its list as they are lifted. Nothing reads them again (subroutine bodies
 * are lists of their own), and in a large program a young collection lands mid-lift: it copied,
 * then promoted, every decoded instruction still in the list, a third of what survived it.
 */
function liftTokens(tokens: TokenProgram, part: string, parts: Parts, options: LiftOptions): Program {
  const v = tokens.version;
  const stage = STAGES[v.stage];
  if (!stage) return refuse('no program', `program type ${v.type}`);
  const target = `${v.stage}_${v.major}_${v.minor}`;
  if (stage === 'hull' || stage === 'domain' || stage === 'geometry')
    return liftStage(tokens, part, parts, options, stage, target);
  const is51 = v.major > 5 || (v.major === 5 && v.minor >= 1);
  const L = new Lifter(stage, part, is51);
  L.resources = new Resources(L, scanUsage(tokens.instructions, is51), parts.rdef, options);
  const decls: IoDecl[] = [];
  let workgroup: [number, number, number] | undefined;
  let early = false;
  let k = 0;
  const ins = tokens.instructions;
  // Declarations (everything before the first instruction that is not one).
  for (; k < ins.length; k++) {
    const i = ins[k] as Instruction;
    L.ins = i;
    if (i.opcode === 0x35) {
      if (i.customData?.dataClass === 3) declareIcb(L, i);
      continue;
    }
    const io = ioDecl(i);
    if (io) {
      checkIoDecl(L, i);
      decls.push(io);
      continue;
    }
    if (L.resources.declare(i)) continue;
    switch (i.opcode) {
      case 0x68: {
        const n = i.values[0] ?? 0;
        if (n > 4096) L.invalid(`dcl_temps ${n} (Direct3D allows 4096)`);
        for (let r = 0; r < n; r++) L.temps.push(L.f.local(`r${r}`, L.tVec4));
        continue;
      }
      case 0x69: {
        const [reg = 0, count = 0] = i.values;
        if (count === 0 || count > 4096) L.invalid(`dcl_indexableTemp of ${count} registers`);
        L.indexable.set(reg, { local: L.f.local(`x${reg}`, L.m.array(L.tVec4, count)), count });
        continue;
      }
      case 0x6a: {
        const flags = i.token >>> 11;
        if (flags & 0x4) early = true;
        continue;
      }
      case 0x9b: {
        const [x = 1, y = 1, z = 1] = i.values;
        if (x * y * z === 0 || x * y * z > 1024) L.invalid(`thread group ${x}x${y}x${z}`);
        workgroup = [x, y, z];
        continue;
      }
      case 0x5b: // dcl_indexrange: the v/o files are arrays already
      case 0x8f: // dcl_stream
        continue;
      case 0x92:
      case 0x91:
      case 0x90:
        L.classes.declare(L, i);
        continue;
    }
    const info = i.opcode;
    if (info >= 0x58 && info <= 0x6a) continue;
    break;
  }
  L.ins = undefined;
  L.classes.finish(L);
  const entry = stage === 'vertex' || stage === 'pixel' || stage === 'compute';
  const inputs = buildInputs(L, decls, parts.inSig, entry);
  const outPlan = buildOutputs(L, decls, parts.outSig, entry);
  const writableInVertex = stage === 'vertex' && L.resources.list.some((r) => r.kind.kind === 'uav');
  const asFunctions = stage === 'vertex' && (!outPlan.hasPosition || writableInVertex);
  if (stage === 'vertex' && !outPlan.hasPosition)
    L.note('a vertex program without a position output feeds a later stage: it is lifted as a stage function');
  else if (writableInVertex)
    L.note(
      'a vertex program with UAVs is lifted as a stage function (WebGPU has no writable storage in vertex programs)',
    );
  const ret = (): Stmt => {
    const value = outPlan.build();
    return value === undefined ? { op: 'return' } : { op: 'return', value };
  };
  const flow = new Flow(L, ret);
  const subs = Subroutines.of(L, ins);
  L.subroutines = { table: subs, liftOne: (fl, i) => liftInstruction(L, fl, i) };
  const taken = ins as (Instruction | undefined)[];
  for (; k < subs.end; k++) {
    const i = ins[k] as Instruction;
    L.ins = i;
    taken[k] = undefined;
    if (i.opcode === 0x35) {
      if (i.customData?.dataClass === 3) declareIcb(L, i);
      continue;
    }
    liftInstruction(L, flow, i);
  }
  L.ins = undefined;
  flow.finish();
  if (fallsThrough(L.f.openBlock())) L.f.stmt(ret());
  const fnId = L.m.addFunction(L.f.finish(outPlan.type !== undefined ? { type: outPlan.type } : undefined));
  if (entry && !asFunctions) {
    L.m.entryPoints.push({
      name: 'main',
      stage: stage === 'pixel' ? 'fragment' : stage,
      function: fnId,
      ...(stage === 'compute'
        ? { workgroupSize: workgroup ?? L.invalid('a compute program without dcl_thread_group') }
        : {}),
      ...(early && stage === 'pixel' ? { earlyFragmentTests: true } : {}),
    });
  }
  return {
    stage,
    interface: {
      inputs,
      outputs: outPlan.varyings,
      patchConstants: [],
      resources: L.resources.list,
      ...(L.classes.declared ? { classLinkage: L.classes.linkage(parts.ifce)! } : {}),
    },
    provenance: { target, bytecode: 'DXBC', part, instructions: ins.length },
    notes: L.notes,
    module: L.m.finish(),
    ...(asFunctions ? { stageFunctions: { main: fnId, patchConstant: [] } } : {}),
  };
}

/** Lifts one instruction of a program's body (flow, arithmetic, resources), or refuses it by name. */
export function liftInstruction(L: Lifter, flow: Flow, i: Instruction): void {
  // provenance (ir.ts Origin): every statement this instruction makes carries its index; a call's
  // inlined body sets its own instructions' and the call's is back for what follows the body
  const f = L.f;
  const outer = f.origin;
  f.origin = i.index;
  liftOne(L, flow, i);
  f.origin = outer;
}

/** The handlers of ALU, MEMORY, LOD, EVAL and DOUBLE_OPS by opcode in one list (the first table
 * holding an opcode gives its handler), made at the first instruction: one read where an opcode
 * outside ALU was five Map look-ups. */
let HANDLERS: readonly (Handler | undefined)[] | undefined;

function handlerOf(opcode: number): Handler | undefined {
  if (HANDLERS === undefined) {
    const tables: readonly ReadonlyMap<number, Handler>[] = [ALU, MEMORY, LOD, EVAL, DOUBLE_OPS];
    const all: (Handler | undefined)[] = [];
    for (const t of [...tables].reverse()) for (const [op, h] of t) all[op] = h;
    HANDLERS = all;
  }
  return HANDLERS[opcode];
}

function liftOne(L: Lifter, flow: Flow, i: Instruction): void {
  if (flow.handle(i)) return;
  if (L.f.unreachable()) return; // after a ret/break/continue of the same block: never runs
  // a class's texture or sampler member (t[r# + n]): once per declared register (interfaces.ts)
  // (asked only where it can apply: the callback is a closure made per instruction)
  if (!L.is51 && L.classes.declared && liftPerBinding(L, i, (j) => liftInstruction(L, flow, j))) return;
  const h = handlerOf(i.opcode);
  if (h) {
    h(L, i);
    return;
  }
  if (i.opcode === 0x3a || i.opcode === 0x6a || i.opcode === 0x68) return; // nop, flags, temps
  if (i.opcode === 0x04 || i.opcode === 0x05) {
    // call / callc: the label's body inline (subroutines.ts)
    const subs = L.subroutines ?? L.refuse('subroutines', 'a call in a program read without its labels');
    subs.table.call(L, i, subs.liftOne);
    return;
  }
  if (i.opcode === 0x78) {
    // fcall: a switch on the class instance bound to the slot, each body inline (interfaces.ts)
    const subs = L.subroutines ?? L.refuse('interfaces', 'an fcall in a program read without its bodies');
    L.classes.fcall(L, i, (fb) => subs.table.callBody(L, fb, subs.liftOne));
    return;
  }
  if (i.opcode === 0x2c) L.invalid('a label inside the body it would end');
  L.refuse('opcode not handled', 'this instruction is not lifted yet');
}

export function declareIcb(L: Lifter, i: Instruction): void {
  if (L.icb) L.invalid('a second immediate constant buffer');
  const words = i.customData?.words ?? new Uint32Array();
  const rows = words.length >>> 2;
  if (rows === 0 || rows > 4096 || words.length % 4 !== 0)
    L.invalid(`an immediate constant buffer of ${words.length} words`);
  const type = L.m.array(L.tVec4, rows);
  const constant = L.m.addConstant({ name: 'icb_data', type, words: Array.from(words) });
  const global = L.m.addGlobal({ name: 'icb', space: 'private', type, init: constant });
  L.icb = { global, rows };
}
