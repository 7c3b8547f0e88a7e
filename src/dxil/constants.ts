// LLVM 3.7 constants (CONSTANTS_BLOCK): SETTYPE, null, undef, integers (sign-rotated VBR, wide),
// floats as bit patterns, aggregates, strings, data arrays and constant expressions (binop, cast,
// getelementptr, select, extractelement, compare), each checked against its type; operand ids are
// resolved once the value table holds them, and a constant may not refer to itself.

import { type RecordCursor, type BitRecord, opBig } from './bitstream.js';
import { Constant, type Type, type Value } from './ir.js';
import { objectList, objects1 } from '../binary/lists.js';
import { type ModuleReader, signRotated } from './module.js';

/** A CONSTANTS_BLOCK: each record one constant of the current SETTYPE type, appended to `values`. */
export function readConstants(mr: ModuleReader, cursor: RecordCursor, values: Value[], pending: Constant[]): void {
  let cur: Type | undefined;
  while (cursor.nextRecord()) {
    const r = cursor;
    const o = r.ops;
    if (r.code === 1) {
      mr.need(r, 1, 'a SETTYPE');
      cur = mr.type(o[0]!);
      continue;
    }
    if (!cur) throw mr.fail('E404_BITCODE_RECORD', 'a constant before any SETTYPE');
    let c: Constant;
    switch (r.code) {
      case 2:
        c = new Constant(cur, 'null');
        break;
      case 3:
        c = new Constant(cur, 'undef');
        break;
      case 4:
        mr.need(r, 1, 'an integer constant');
        c = new Constant(cur, 'int');
        c.bits = intBits(r, cur.width);
        break;
      case 5: {
        c = new Constant(cur, 'int');
        let v = 0n;
        for (let i = o.length - 1; i >= 0; i--) v = (v << 64n) | BigInt.asUintN(64, signRotated(opBig(r, i)));
        c.bits = BigInt.asIntN(cur.width, v);
        break;
      }
      case 6:
        mr.need(r, 1, 'a float constant');
        c = new Constant(cur, 'float');
        c.bits = opBig(r, 0);
        break;
      case 7:
        c = new Constant(cur, 'aggregate');
        c.opIds = o; // the record's own list, read by nothing else
        break;
      case 8:
      case 9:
        c = new Constant(cur, r.code === 8 ? 'string' : 'cstring');
        c.bytes = o;
        break;
      case 22:
        c = new Constant(cur, 'data');
        c.data = r.big ? o.map((_, i) => opBig(r, i)) : o.map(toBig);
        break;
      case 10: // CE_BINOP [opcode, lhs, rhs, flags?]
        mr.need(r, 3, 'a constant binop');
        c = new Constant(cur, 'ce-binop');
        c.sub = o[0]!;
        c.opIds = [o[1]!, o[2]!];
        c.flags = o[3] ?? 0;
        break;
      case 11: // CE_CAST [opc, opty, opval]
        mr.need(r, 3, 'a constant cast');
        c = new Constant(cur, 'ce-cast');
        c.sub = o[0]!;
        c.opTypes = objects1(mr.type(o[1]!));
        c.opIds = [o[2]!];
        break;
      case 12:
      case 20: {
        c = new Constant(cur, 'ce-gep');
        c.sub = r.code === 20 ? 1 : 0;
        let i = 0;
        if (o.length & 1) c.srcType = mr.type(o[i++]!);
        const types: Type[] = objectList();
        const ids: number[] = [];
        for (; i + 1 < o.length; i += 2) {
          types.push(mr.type(o[i]!));
          ids.push(o[i + 1]!);
        }
        c.opTypes = types;
        c.opIds = ids;
        break;
      }
      case 13:
        mr.need(r, 3, 'a constant select');
        c = new Constant(cur, 'ce-select');
        c.opIds = [o[0]!, o[1]!, o[2]!];
        break;
      case 14:
        mr.need(r, 3, 'a constant extractelement');
        c = new Constant(cur, 'ce-extractelement');
        c.opIds = o.length >= 4 ? [o[1]!, o[3]!] : [o[1]!, o[2]!];
        break;
      case 17:
      case 18:
        mr.need(r, 4, 'a constant compare');
        c = new Constant(cur, 'ce-cmp');
        c.opTypes = objects1(mr.type(o[0]!));
        c.opIds = [o[1]!, o[2]!];
        c.sub = o[3]!;
        break;
      default:
        throw mr.fail('E408_BITCODE_UNSUPPORTED', `constant record code ${r.code} is not supported`);
    }
    checkConstant(mr, c, r.code);
    values.push(c);
    if (c.opIds.length) pending.push(c);
  }
}

const toBig = (v: number): bigint => BigInt(v);

/**
 * An INTEGER record's value (sign-rotated, then truncated to the type's width, as a signed
 * bigint). Operands below 2^53 of types up to 32 bits, or 64 bits and more, are worked out in
 * numbers, which is exact there; the rest in bigint.
 */
function intBits(r: BitRecord, width: number): bigint {
  const v = r.ops[0]!;
  if (r.big === undefined && v !== 1 && (width <= 32 || width >= 64)) {
    // signRotated: even values are v / 2, odd ones -(v >> 1); 1 alone means -2^63.
    const x = v % 2 === 0 ? v / 2 : -(v - 1) / 2;
    if (width >= 64) return BigInt(x);
    const s = 32 - Math.max(width, 1);
    return BigInt((x << s) >> s);
  }
  return BigInt.asIntN(Math.max(width, 1), signRotated(opBig(r, 0)));
}

function checkConstant(mr: ModuleReader, c: Constant, code: number): void {
  const t = c.type;
  const seq = t.kind === 'array' || t.kind === 'vector';
  let ok = true;
  switch (c.ck) {
    case 'int':
      ok = t.kind === 'int';
      break;
    case 'float':
      ok = t.isFP();
      break;
    case 'aggregate':
      ok = (t.kind === 'struct' && c.opIds.length === t.elts.length) || (seq && c.opIds.length === t.count);
      break;
    case 'string':
    case 'cstring':
      ok = seq && t.elt!.kind === 'int' && c.bytes.length + (c.ck === 'cstring' ? 1 : 0) === t.count;
      break;
    case 'data':
      ok = seq && (t.elt!.kind === 'int' || t.elt!.isFP()) && c.data.length === t.count;
      break;
    case 'ce-gep':
      // the base is a pointer (the printer and the lifter read its pointee)
      ok = c.opIds.length > 0 && (c.srcType !== undefined || c.opTypes[0]?.kind === 'ptr');
      break;
    case 'null':
    case 'undef':
    case 'ce-binop':
    case 'ce-cast':
    case 'ce-cmp':
    case 'ce-select':
    case 'ce-extractelement':
    case 'ce-insertelement':
    case 'ce-shufflevector':
    case 'blockaddress':
    case 'inlineasm':
      break;
  }
  if (!ok) throw mr.fail('E404_BITCODE_RECORD', `constant record ${code} does not fit its type (a ${t.kind})`);
}

/** Constants are built bottom-up in LLVM: one that refers to itself, however far round, is refused. */
export function checkAcyclic(mr: ModuleReader, list: readonly Constant[]): void {
  const state = new Map<Constant, 1 | 2>(); // 1 on the path, 2 done
  for (const root of list) {
    if (state.has(root)) continue;
    const stack: [Constant, number][] = [[root, 0]];
    state.set(root, 1);
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const [c, i] = top;
      if (i >= c.ops.length) {
        state.set(c, 2);
        stack.pop();
        continue;
      }
      top[1]++;
      const op = c.ops[i];
      if (!(op instanceof Constant)) continue;
      const st = state.get(op);
      if (st === 1) throw mr.fail('E405_BITCODE_FORWARD_REF', 'a constant refers to itself through its operands');
      if (st === undefined) {
        state.set(op, 1);
        stack.push([op, 0]);
      }
    }
  }
}

/** Resolves a constant's operand ids against the value table. */
export function resolveConstant(mr: ModuleReader, c: Constant, values: readonly Value[]): void {
  if (c.opIds.length === 0) return;
  c.ops = c.opIds.map((id, k) => {
    const v = values[id];
    if (!v) throw mr.fail('E405_BITCODE_FORWARD_REF', `a constant refers to value ${id}, never defined`);
    // LLVM reads each operand with the type its record gives (ValueList.getConstantFwdRef): a value of
    // another type is an invalid record.
    const want = operandType(c, k);
    if (want !== undefined && v.type !== want)
      throw mr.fail(
        'E404_BITCODE_RECORD',
        `a constant's operand ${k} (value ${id}) is not of the type its record gives`,
      );
    return v;
  });
}

/** The type operand `k` of a constant must have, where its record says (undefined: not checked). */
function operandType(c: Constant, k: number): Type | undefined {
  const t = c.type;
  switch (c.ck) {
    case 'aggregate':
      return t.kind === 'struct' ? t.elts[k] : t.elt;
    case 'ce-binop':
      return t;
    case 'ce-cast':
    case 'ce-gep':
      return c.opTypes[k];
    default:
      return undefined;
  }
}
