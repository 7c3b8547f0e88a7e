// dxc's "Buffer Definitions" (dxcdisassembler.cpp's PrintBufferDefinitions and the struct and field
// layout printers): cbuffers laid out by their annotations' offsets, structured buffer elements by
// dxc's DataLayout, tbuffers; HLSL type names from the annotations' component types and matrices.

import type { DxilInfo, DxilResource, DxilStructAnnotation } from './dxil-metadata.js';
import type { Type } from './ir.js';
import { DataLayout } from './datalayout.js';
import { left, right } from './header.js';

const HLSL_NAMES = [
  'unknown',
  'bool',
  'int16_t',
  'uint16_t',
  'int',
  'uint',
  'int64_t',
  'uint64_t',
  'half',
  'float',
  'double',
  'snorm_half',
  'unorm_half',
  'snorm_float',
  'unorm_float',
  'snorm_double',
  'unorm_double',
  'int8_t_packed',
  'uint8_t_packed',
];
const HLSL_NAMES_MIN_PRECISION = [
  'unknown',
  'bool',
  'min16i',
  'min16ui',
  'int',
  'uint',
  'int64_t',
  'uint64_t',
  'min16float',
  'float',
  'double',
  'snorm_min16f',
  'unorm_min16f',
  'snorm_float',
  'unorm_float',
  'snorm_double',
  'unorm_double',
  'int8_t_packed',
  'uint8_t_packed',
];

interface LayoutContext {
  /** Structured buffers lay their elements out by the data layout; cbuffers by the annotations. */
  readonly dl: DataLayout | undefined;
  readonly ann: ReadonlyMap<Type, DxilStructAnnotation>;
  readonly minPrecision: boolean;
  readonly out: string[];
}

function ind(n: number): string {
  return ' '.repeat(n);
}

function typeAndName(
  ty: Type,
  f: DxilStructAnnotation['fields'][number],
  arraySize: number,
  minPrecision: boolean,
): string {
  let t = ty;
  while (t.kind === 'array') t = t.elt!;
  const comp = (minPrecision ? HLSL_NAMES_MIN_PRECISION : HLSL_NAMES)[f.compType] ?? 'unknown';
  let s = '';
  if (f.matrix) {
    if (f.matrix.orientation === 1) s += 'row_major ';
    else if (f.matrix.orientation === 2) s += 'column_major ';
    s += `${comp}${f.matrix.rows}x${f.matrix.cols}`;
  } else if (t.kind === 'vector') s += `${comp}${t.count}`;
  else s += comp;
  s += ` ${f.name}`;
  if (arraySize) s += `[${arraySize}]`;
  return s + ';';
}

function fieldLayout(
  c: LayoutContext,
  ty: Type,
  f: DxilStructAnnotation['fields'][number],
  offset: number,
  indent: number,
  offsetIndent: number,
  sizeToPrint = 0,
): void {
  if (ty.kind === 'struct' && !f.matrix) {
    structLayout(c, ty, f.name, offset, indent, offsetIndent);
    return;
  }
  let elt = ty;
  let arraySize = 0;
  let level = 0;
  if (elt.kind === 'array') {
    arraySize = 1;
    while (elt.kind === 'array') {
      arraySize *= elt.count;
      elt = elt.elt!;
      level++;
    }
  }
  if (f.matrix) {
    if (f.matrix.orientation === 1) arraySize = Math.floor(arraySize / f.matrix.rows);
    else if (f.matrix.orientation === 2) arraySize = Math.floor(arraySize / f.matrix.cols);
    if (elt.kind === 'vector') elt = elt.elt!;
    if (level === 1) arraySize = 0;
  }
  if (elt.kind === 'struct' && !f.matrix) {
    structLayout(c, elt, `${f.name}${arraySize ? `[${arraySize}]` : ''};`, offset, indent, offsetIndent);
    return;
  }
  let line = ';' + ind(indent) + left(typeAndName(ty, f, arraySize, c.minPrecision), offsetIndent);
  line += '; Offset:' + right(String(offset), 5);
  if (sizeToPrint) line += ' Size: ' + right(String(sizeToPrint), 5);
  c.out.push(line + '\n');
}

function structLayout(
  c: LayoutContext,
  st: Type,
  varName: string,
  offset: number,
  indent: number,
  offsetIndent: number,
  sizeOfStruct = 0,
): void {
  const a = c.ann.get(st);
  c.out.push(`;${ind(indent)}struct ${st.name ?? ''}\n;${ind(indent)}{\n;\n`);
  if (!a) {
    c.out.push(
      sizeOfStruct
        ? `;${ind(indent + 4)}[${sizeOfStruct} x i8] (type annotation not present)\n`
        : `;${ind(indent + 4)}/* empty struct */\n`,
    );
  } else {
    st.elts.forEach((et, i) => {
      const f = a.fields[i];
      const at = c.dl ? c.dl.struct(st).offsets[i]! : f?.cbufferOffset;
      if (f && at !== undefined) fieldLayout(c, et, f, offset + at, indent + 4, offsetIndent - 4);
    });
  }
  c.out.push(`;${ind(indent)}\n`);
  let line = `;${ind(indent)}} ${left(varName + ';', offsetIndent - 2)}; Offset:${right(String(offset), 5)}`;
  if (sizeOfStruct) line += ` Size: ${right(String(sizeOfStruct), 5)}`;
  c.out.push(line + '\n;\n');
}

function bufferStruct(r: DxilResource): Type | undefined {
  let t = r.symbolType?.kind === 'ptr' ? r.symbolType.elt : r.symbolType;
  if (t?.kind === 'array') t = t.elt;
  return t?.kind === 'struct' ? t : undefined;
}

export function bufferDefinitionsText(info: DxilInfo, minPrecision: boolean, datalayout: string): string {
  const out: string[] = [';\n; Buffer Definitions:\n;\n'];
  const c: LayoutContext = { dl: undefined, ann: info.structAnnotations, minPrecision, out };
  // The datalayout is parsed only for a structured buffer, the one place its sizes and offsets print.
  let withDl: LayoutContext | undefined;
  const layout = (): LayoutContext => (withDl ??= { ...c, dl: new DataLayout(datalayout) });
  for (const cb of info.cbuffers) {
    out.push(`; cbuffer ${cb.name}\n; {\n;\n`);
    const st = bufferStruct(cb);
    if (!st || !c.ann.get(st)) out.push(`;   [${cb.size} x i8] (type annotation not present)\n;\n`);
    else structLayout(c, st, cb.name, 0, 3, 50, cb.size);
    out.push('; }\n;\n');
  }
  for (const list of [info.srvs, info.uavs]) {
    for (const r of list) {
      if (r.kind === 12) {
        out.push(`; Resource bind info for ${r.name}\n; {\n;\n`);
        const st = bufferStruct(r);
        const inner = st?.elts[0];
        const size = st ? layout().dl!.allocSize(st) : r.stride;
        if (inner && inner.kind === 'struct') {
          if (!c.ann.get(inner)) out.push(`;   [${size} x i8] (type annotation not present)\n`);
          else structLayout(layout(), inner, '$Element', 0, 3, 50, size);
        } else {
          const a = st ? c.ann.get(st) : undefined;
          const f = a?.fields[0];
          if (!f || !inner) out.push(`;   [${size} x i8] (type annotation not present)\n`);
          else fieldLayout(c, inner, { ...f, name: '$Element' }, 0, 3, 50, size);
          out.push(';\n');
        }
        out.push('; }\n;\n');
      } else if (r.kind === 15 && list === info.srvs) {
        out.push(`; tbuffer ${r.name}\n; {\n;\n`);
        const st = bufferStruct(r);
        const a = st ? c.ann.get(st) : undefined;
        if (!st || !a) out.push(';   (type annotation not present)\n;\n');
        else structLayout(c, st, r.name, 0, 3, 50, a.size);
        out.push('; }\n;\n');
      }
    }
  }
  return out.join('');
}
