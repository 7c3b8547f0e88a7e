// Subroutines of SM4/5 (label / call / callc / ret; D3D11.3 §22 "call", "label"): a subroutine shares
// every register with its caller, may not recurse, and nests at most 32 calls deep. The lifter
// inlines each call site: the body of `label l#` (from the label to the next label or the end of the
// program) is lifted again where it is called, under a Flow of its own whose `ret` returns from the
// subroutine only (flow.ts: a body with an early `ret` is wrapped in `loop { ... break; }`). Since the
// registers are the caller's locals, nothing is passed; the WGSL and the executor see plain code.
// A call deeper than 32, a call to a label the program lacks and inlining past a size budget are
// refused by name; nothing is approximated.

import type { LocalId } from '../ir/ir.js';
import type { Instruction, Operand } from '../sm4/types.js';
import { Flow } from './flow.js';
import { OT, type Lifter } from './state.js';

/** Direct3D's limit on nested subroutine calls. */
const MAX_DEPTH = 32;
/** Instructions inlining may add to one program (a guard against exponential call trees). */
const MAX_INLINED = 1 << 16;

const LABEL = 0x2c;
const CALLC = 0x05;
const RET = 0x3e;
const RETC = 0x3f;
const LOOP = 0x30;
const ENDLOOP = 0x16;
const SWITCH = 0x4c;
const ENDSWITCH = 0x17;

/** The subroutine bodies of a program and the state of inlining them. */
export class Subroutines {
  private depth = 0;
  private inlined = 0;

  private constructor(
    private readonly bodies: ReadonlyMap<number, readonly Instruction[]>,
    /** Index of the first `label`: the caller's body ends there. */
    readonly end: number,
    /** Class interfaces' function bodies (`label fb#`), called by fcall (interfaces.ts). */
    private readonly functionBodies: ReadonlyMap<number, readonly Instruction[]> = new Map(),
  ) {}

  /** Reads the label bodies of `ins` (every instruction from the first label on). */
  static of(L: Lifter, ins: readonly Instruction[]): Subroutines {
    const first = ins.findIndex((i) => i.opcode === LABEL);
    const bodies = new Map<number, Instruction[]>();
    const functionBodies = new Map<number, Instruction[]>();
    if (first < 0) return new Subroutines(bodies, ins.length);
    let current: Instruction[] | undefined;
    for (let k = first; k < ins.length; k++) {
      const i = ins[k] as Instruction;
      if (i.opcode === LABEL) {
        L.ins = i;
        const op = i.operands[0];
        const fb = op?.type === OT.functionBody;
        const n = fb ? indexOf(L, op) : labelOf(L, op);
        const map = fb ? functionBodies : bodies;
        if (map.has(n)) L.invalid(`label ${fb ? 'fb' : 'l'}${n} is defined twice`);
        current = [];
        map.set(n, current);
        continue;
      }
      current?.push(i);
    }
    L.ins = undefined;
    return new Subroutines(bodies, first, functionBodies);
  }

  /** Lifts `call l#` or `callc l#` (the label body inline), with `liftOne` lifting each instruction. */
  call(L: Lifter, ins: Instruction, liftOne: (flow: Flow, i: Instruction) => void): void {
    const conditional = ins.opcode === CALLC;
    const n = labelOf(L, ins.operands[conditional ? 1 : 0]);
    const body = this.bodies.get(n);
    if (!body) return L.invalid(`call of label l${n}, which the program does not define`);
    if (this.depth >= MAX_DEPTH)
      return L.refuse('subroutines', `calls nested deeper than ${MAX_DEPTH} (Direct3D's limit; recursion?)`);
    this.inlined += body.length;
    if (this.inlined > MAX_INLINED)
      return L.refuse('subroutines', `inlining the calls would lift more than ${MAX_INLINED} instructions`);
    if (conditional) {
      const cond = L.test(ins.operands[0] as Operand, ((ins.token >>> 18) & 1) === 1);
      L.f.open();
      this.inline(L, body, liftOne);
      L.f.stmt({ op: 'if', cond, accept: L.f.close(), reject: [] });
    } else this.inline(L, body, liftOne);
    L.ins = ins;
  }

  /** Lifts the function body fb# inline (an fcall's case, interfaces.ts), as a call does a label's. */
  callBody(L: Lifter, fb: number, liftOne: (flow: Flow, i: Instruction) => void): void {
    const ins = L.ins;
    const body = this.functionBodies.get(fb);
    if (!body) return L.invalid(`fcall of fb${fb}, which the program does not define`);
    if (this.depth >= MAX_DEPTH)
      return L.refuse('subroutines', `calls nested deeper than ${MAX_DEPTH} (Direct3D's limit; recursion?)`);
    this.inlined += body.length;
    if (this.inlined > MAX_INLINED)
      return L.refuse('subroutines', `inlining the calls would lift more than ${MAX_INLINED} instructions`);
    this.inline(L, body, liftOne);
    L.ins = ins;
  }

  private inline(L: Lifter, body: readonly Instruction[], liftOne: (flow: Flow, i: Instruction) => void): void {
    // The closing `ret` ends the body; any other ret (or a retc) returns early, and one inside a
    // loop or switch of the body needs the flag.
    const last = body[body.length - 1];
    const count = last?.opcode === RET ? body.length - 1 : body.length;
    let early = false;
    let nested = false;
    let depth = 0;
    for (let k = 0; k < count; k++) {
      const op = (body[k] as Instruction).opcode;
      if (op === LOOP || op === SWITCH) depth++;
      else if (op === ENDLOOP || op === ENDSWITCH) depth--;
      else if (op === RET || op === RETC) {
        early = true;
        if (depth > 0) nested = true;
      }
    }
    let flag: LocalId | undefined;
    if (nested) {
      flag = L.f.local('sub_ret', L.m.scalar('bool'));
      // Cleared at the call site: a call inside a loop runs the body again.
      L.f.stmt({ op: 'store', pointer: L.local(flag), value: L.f.bool(false) });
    }
    const flow = new Flow(L, () => L.invalid('a subroutine ret lifted as the caller ret'), {
      flag: () => flag ?? L.invalid('a subroutine ret inside a loop or switch the scan did not see'),
    });
    this.depth++;
    if (early) L.f.open();
    for (let k = 0; k < count; k++) {
      const i = body[k] as Instruction;
      L.ins = i;
      liftOne(flow, i);
    }
    L.ins = undefined;
    flow.finish();
    this.depth--;
    if (early) {
      L.f.stmt({ op: 'break' });
      L.f.stmt({ op: 'loop', body: L.f.close() });
    }
  }
}

function indexOf(L: Lifter, op: Operand | undefined): number {
  const ix = op?.indices[0];
  if (!ix || ix.rep !== 0) return L.invalid('a label with a relative index');
  return ix.imm;
}

function labelOf(L: Lifter, op: Operand | undefined): number {
  if (op?.type === OT.functionBody) return L.refuse('interfaces', 'a function body of class interfaces (label fb#)');
  if (!op || op.type !== OT.label) return L.invalid('a call or label without its label operand');
  const ix = op.indices[0];
  if (!ix || ix.rep !== 0) return L.invalid('a label with a relative index');
  return ix.imm;
}
