// Class interfaces of Shader Model 5.0 (D3D11.3 §22 "Interfaces": dcl_function_body, dcl_function_table,
// dcl_interface, fcall, the `this` register; containers.md "Class linkage part (IFCE)").
//
// Direct3D binds one class instance to each interface slot when the program is set (ClassLinkage:
// PSSetShader's class instances). What the program sees of the instance is (a) which function table
// its class type selects, among those `dcl_interface fp#` lists, and (b) four words, `this[slot]`:
// the constant buffer the instance's data is in, the instance's first register there, its first
// texture and its first sampler. iridia's lifted program takes both from one uniform buffer the
// caller fills, `iface` (group 0, the binding after the constant buffers'), of 2 × slots rows:
//   row s (0 <= s < slots):          this[s] = (cb register, first row, first texture, first sampler)
//   row slots + s, lane x:           the function table id (ft#) bound to slot s
// `classLinkageWords` (below) computes the rows from the IFCE part's instances and slot records for
// the class instances a caller names, as the runtime does. A slot whose row names no table of its
// interface's list (or an interface array index past its slots) calls nothing.
//
// `fcall fp#[index][callSite]` is a switch on the slot's table id with one case per table of the
// interface: each case lifts the table's body for that call site inline, as `call` does a label's
// (subroutines.ts: the bodies share the caller's registers). A constant-buffer operand whose buffer
// index is relative (`cb[r1.w + 0][r0.w + 1]`, how a body reads its instance's data) selects among the
// declared constant buffers by that index (zero for any other). A body's texture or sampler with a
// relative index (`t[r1.x + 0]`, a class with texture members) would need a statement per binding and
// is refused by name.

import type { ExprId, GlobalId, Stmt } from '../ir/ir.js';
import type { ClassLinkage, InterfaceDecl } from '../ir/program.js';
import type { Instruction, Operand } from '../sm4/types.js';
import { isIridiaError } from '../errors.js';
import type { Ifce } from '../parts/ifce.js';
import type { Lifter } from './state.js';

export class ClassInterfaces {
  readonly bodies = new Set<number>();
  readonly tables = new Map<number, number[]>();
  readonly interfaces: InterfaceDecl[] = [];
  private iface: { global: GlobalId; slots: number; group: number; binding: number } | undefined;
  private finished = false;
  private cbi: { global: GlobalId; rows: number; group: number; binding: number } | undefined;

  /** Reads dcl_function_body (0x90), dcl_function_table (0x91) and dcl_interface (0x92). */
  declare(L: Lifter, i: Instruction): boolean {
    const v = i.values;
    switch (i.opcode) {
      case 0x90:
        this.bodies.add(v[0] ?? 0);
        return true;
      case 0x91: {
        const [id = 0, count = 0] = v;
        if (count !== v.length - 2)
          L.invalid(`dcl_function_table ft${id} lists ${count} bodies in ${v.length - 2} words`);
        if (this.tables.has(id)) L.invalid(`ft${id} is declared twice`);
        this.tables.set(id, v.slice(2));
        return true;
      }
      case 0x92: {
        const [fp = 0, callSites = 0, packed = 0] = v;
        const tableCount = packed & 0xffff;
        const arraySize = packed >>> 16;
        if (tableCount !== v.length - 3)
          L.invalid(`dcl_interface fp${fp} lists ${tableCount} tables in ${v.length - 3} words`);
        if (arraySize === 0 || fp + arraySize > 253) L.invalid(`dcl_interface fp${fp}[${arraySize}]`);
        this.interfaces.push({ fp, arraySize, callSites, tables: v.slice(3) });
        return true;
      }
    }
    return false;
  }

  get declared(): boolean {
    return this.interfaces.length > 0;
  }

  /** After the declarations: checks the tables and adds the `iface` uniform. */
  finish(L: Lifter): void {
    if (this.finished) return;
    this.finished = true;
    if (!this.declared) {
      if (this.bodies.size || this.tables.size) L.invalid('function bodies or tables without an interface');
      return;
    }
    for (const [id, fbs] of this.tables)
      for (const fb of fbs) if (!this.bodies.has(fb)) L.invalid(`ft${id} lists fb${fb}, which is not declared`);
    for (const d of this.interfaces)
      for (const t of d.tables) {
        const fbs = this.tables.get(t);
        if (!fbs) L.invalid(`fp${d.fp} lists ft${t}, which is not declared`);
        if (fbs.length !== d.callSites)
          L.invalid(`fp${d.fp} has ${d.callSites} call sites and ft${t} ${fbs.length} bodies`);
      }
    const slots = Math.max(...this.interfaces.map((d) => d.fp + d.arraySize));
    const used = L.resources.list.filter((r) => r.group === 0).map((r) => r.binding + Math.max(0, (r.count ?? 1) - 1));
    const binding = Math.max(14, ...used.map((b) => b + 1));
    const type = L.m.array(L.tVec4, 2 * slots);
    const global = L.m.addGlobal({ name: 'iface', space: 'uniform', type, binding: { group: 0, binding } });
    this.iface = { global, slots, group: 0, binding };
    L.resources.list.push({
      name: 'iface',
      global,
      reflectedName: '$ClassLinkage',
      registerClass: 'this',
      register: 0,
      count: 1,
      space: 0,
      id: 0,
      group: 0,
      binding,
      kind: { kind: 'constantBuffer', rows: 2 * slots, layout: { constants: [] } },
    });
    L.note(
      `class interfaces: the caller binds class instances through the uniform iface (group 0, binding ${binding}; rows 0..${slots - 1} the this data of each slot, rows ${slots}..${2 * slots - 1} the function table id): see Program.interface.classLinkage`,
    );
  }

  /**
   * The uniform `cbi` (made on first use): the constant buffer a class instance's data is read from
   * when its this[].x names a register the program does not declare (fxc declares no buffer for
   * instances the application makes with CreateClassInstance). One binding stands for every such
   * register: the caller binds there the buffer it would bind at the instance's register.
   */
  instanceBuffer(L: Lifter): { global: GlobalId; rows: number } {
    if (this.cbi) return this.cbi;
    const f = this.iface ?? L.invalid('a constant buffer indexed by a register in a program without interfaces');
    const rows = 4096;
    const binding = f.binding + 1;
    const global = L.m.addGlobal({
      name: 'cbi',
      space: 'uniform',
      type: L.m.array(L.tVec4, rows),
      binding: { group: 0, binding },
    });
    this.cbi = { global, rows, group: 0, binding };
    L.resources.list.push({
      name: 'cbi',
      global,
      reflectedName: '$ClassInstanceData',
      registerClass: 'this',
      register: 1,
      count: 1,
      space: 0,
      id: 1,
      group: 0,
      binding,
      kind: { kind: 'constantBuffer', rows, layout: { constants: [] } },
    });
    L.note(
      `class instance data whose this[].x names a constant-buffer register the program does not declare is read from cbi (group 0, binding ${binding}): one buffer for every such register`,
    );
    return this.cbi;
  }

  linkage(ifce: Ifce | undefined): ClassLinkage | undefined {
    if (!this.iface) return undefined;
    return {
      group: this.iface.group,
      binding: this.iface.binding,
      slots: this.iface.slots,
      ...(this.cbi ? { instanceBuffer: { group: this.cbi.group, binding: this.cbi.binding } } : {}),
      interfaces: this.interfaces,
      tables: Object.fromEntries(this.tables),
      ...(ifce ? { ifce } : {}),
    };
  }

  /** `this[i]`: the slot's four words. */
  readThis(L: Lifter, op: Operand): ExprId {
    this.finish(L); // a stage program declares inside its body: the declarations are over by now
    const f = this.iface ?? L.invalid('the this register in a program without interfaces');
    return L.readRow(L.global(f.global), f.slots, L.index(op.indices[0]), 'this');
  }

  /** `fcall fp#[index][callSite]`: a switch on the bound table, each case one body inline. */
  fcall(L: Lifter, i: Instruction, inline: (fb: number) => void): void {
    this.finish(L);
    const f = this.iface ?? L.invalid('fcall in a program without interfaces');
    const op = i.operands[0];
    if (op?.type !== 19) return L.invalid('fcall without its interface operand');
    const fp = op.indices[0]?.imm ?? 0;
    const d = this.interfaces.find((x) => x.fp === fp) ?? L.invalid(`fcall of fp${fp}, which is not declared`);
    const site = i.values[0] ?? 0;
    if (site >= d.callSites) L.invalid(`fcall fp${fp} call site ${site} of ${d.callSites}`);
    const ix = L.index(op.indices[1]);
    if (!ix.dynamic && ix.imm >= d.arraySize) L.invalid(`fcall fp${fp}[${ix.imm}] of ${d.arraySize}`);
    const slot = ix.dynamic ? L.bin('add', ix.expr, L.u32(fp)) : L.u32(fp + ix.imm);
    const row = L.access(L.global(f.global), L.bin('add', slot, L.u32(f.slots)));
    const table = L.swz(L.load(row), [0]);
    // an array index past the interface's slots calls nothing
    const selector = ix.dynamic ? L.sel(L.bin('lt', ix.expr, L.u32(d.arraySize)), table, L.u32(0xffffffff)) : table;
    const cases = [...new Set(d.tables)].map((t) => {
      L.f.open();
      const fb = this.tables.get(t)?.[site] ?? L.invalid(`ft${t} has no body for call site ${site}`);
      inline(fb);
      L.f.stmt({ op: 'break' });
      return { values: [t >>> 0], isDefault: false, body: L.f.close() };
    });
    L.f.open();
    L.f.stmt({ op: 'break' });
    cases.push({ values: [], isDefault: true, body: L.f.close() });
    L.f.stmt({ op: 'switch', selector, cases });
    L.ins = i;
  }
}

/**
 * An instruction whose texture or sampler operand is indexed by a register (`t[r1.x + 0]`, a class
 * member: the instance's first texture, this[].z, plus the member's place): WGSL cannot pick a
 * texture by a value, so the instruction is lifted once per declared register of that class, inside
 * a switch on the index (an operand of each kind at a time: a sampler indexed too gives a switch in
 * each case). A register whose declaration the instruction cannot use (another dimension) gets no
 * case; an index naming no declared register does nothing (the destination keeps its value; noted).
 * Returns false when the instruction has no such operand.
 */
export function liftPerBinding(L: Lifter, i: Instruction, liftOne: (i: Instruction) => void): boolean {
  if (L.is51 || !L.classes.declared) return false;
  const k = i.operands.findIndex(
    (o) => (o.type === 6 || o.type === 7) && o.indices[0] !== undefined && o.indices[0].rep !== 0,
  );
  if (k < 0) return false;
  const op = i.operands[k] as Operand;
  const cls = op.type === 7 ? 't' : 's';
  const index = L.index(op.indices[0]);
  const registers = L.resources.list.filter((r) => r.registerClass === cls && r.count === 1).map((r) => r.register);
  const cases: { values: number[]; isDefault: boolean; body: Stmt[] }[] = [];
  let last: unknown;
  for (const reg of registers) {
    const fixed: Operand = { ...op, indices: [{ rep: 0, imm: reg, immHi: 0 }, ...op.indices.slice(1)] };
    L.f.open();
    const mine = L.f.openBlock();
    try {
      liftOne({ ...i, operands: i.operands.map((o, n) => (n === k ? fixed : o)) });
    } catch (e) {
      if (!isIridiaError(e)) throw e;
      last = e;
      // drop the case, with any block the failed instruction left open
      while (L.f.openBlock() !== mine) L.f.close();
      L.f.close();
      continue;
    } finally {
      L.ins = i;
    }
    cases.push({ values: [reg], isDefault: false, body: [...L.f.close()] });
  }
  if (cases.length === 0) {
    if (last) throw last;
    return L.invalid(`${cls}[r# + n] in a program that declares no ${cls}#`);
  }
  cases.push({ values: [], isDefault: true, body: [] });
  L.f.stmt({ op: 'switch', selector: index.expr, cases });
  L.note(
    `class texture and sampler members: an instruction with ${cls}[r# + n] is lifted once per declared ${cls}# in a switch; an index naming no declared register leaves the destination unchanged`,
  );
  return true;
}

/** What a caller binds to one slot: an IFCE class instance (an element of an instance array), or a
 * class type with no data (CreateClassInstance with zero offsets; such classes have no instance). */
export type BoundInstance =
  | { readonly instance: string; readonly element?: number }
  | { readonly classType: string; readonly cb?: number; readonly row?: number };

/**
 * The `iface` rows for binding class instances as Direct3D's ClassLinkage does: `bound[s]` is what
 * slot s holds (undefined: nothing, every call through it calls nothing). The function table is the
 * one the slot's IFCE record pairs with the instance's class type; `this` is the instance's
 * constant buffer, first row (plus the element times the class's stride), first texture and first
 * sampler (0 where it has none). Throws on a name the IFCE part lacks or a class type the slot's
 * record does not list. `cbRegister` maps an IFCE constant-buffer index to its register
 * (reflection's bind point of that buffer; identity by default).
 */
export function classLinkageWords(
  linkage: ClassLinkage,
  bound: readonly (BoundInstance | undefined)[],
  cbRegister: (index: number) => number = (k) => k,
): Uint32Array {
  const ifce = linkage.ifce;
  if (!ifce) throw new Error('the program has no IFCE part: fill iface by hand');
  const words = new Uint32Array(linkage.slots * 8);
  words.fill(0xffffffff, linkage.slots * 4);
  // slot -> its record
  const recordOf: number[] = [];
  ifce.slotRecords.forEach((r, k) => {
    for (let n = 0; n < r.slotSpan; n++) recordOf.push(k);
  });
  const has = (v: number) => v !== 0xffff;
  bound.forEach((b, s) => {
    if (!b || s >= linkage.slots) return;
    let classType: number;
    let data: [number, number, number, number];
    if ('instance' in b) {
      const inst = ifce.instances.find((x) => x.name === b.instance);
      if (!inst) throw new Error(`no class instance ${b.instance}`);
      const type = ifce.classTypes[inst.classType];
      const e = b.element ?? 0;
      if (e >= inst.count) throw new Error(`${b.instance} has ${inst.count} elements`);
      classType = inst.classType;
      data = [
        has(inst.constantBuffer) ? cbRegister(inst.constantBuffer) : 0,
        has(inst.constantBuffer) ? inst.bufferRegister + e * (type?.constantBufferStride ?? 0) : 0,
        has(inst.firstTexture) ? inst.firstTexture + e * (type?.textureCount ?? 0) : 0,
        has(inst.firstSampler) ? inst.firstSampler + e * (type?.samplerCount ?? 0) : 0,
      ];
    } else {
      classType = ifce.classTypes.findIndex((t) => t.name === b.classType);
      if (classType < 0) throw new Error(`no class type ${b.classType}`);
      data = [b.cb ?? 0, b.row ?? 0, 0, 0];
    }
    const rec = ifce.slotRecords[recordOf[s] ?? -1];
    const k = rec?.classTypes.indexOf(classType) ?? -1;
    if (!rec || k < 0)
      throw new Error(`slot ${s} cannot hold class type ${ifce.classTypes[classType]?.name ?? classType}`);
    words.set(data, s * 4);
    words[(linkage.slots + s) * 4] = rec.functionTables[k] ?? 0xffffffff;
  });
  return words;
}
