// disassembleDxil: the text dxc prints with /Fc for a DXIL container (dxcdisassembler.cpp's
// Disassemble): the comment header from the container's parts and the module's dx.* metadata, then
// the LLVM 3.7 module with dxc's instruction comments. Like dxc it prints the debug module (ILDB)
// when there is one, and takes buffer definitions and bindings from the reflection module (STAT)
// when the program's module has been stripped of them.

import type { Container } from '../container/container.js';
import { IridiaError } from '../errors.js';
import { readSfi0 } from '../parts/sfi0.js';
import { readSignature } from '../parts/signature.js';
import { dxcInstructionComment } from './annotate.js';
import { readDxilInfo } from './dxil-metadata.js';
import { bufferDefinitionsText } from './buffers.js';
import { subobjectsText } from './subobjects.js';
import {
  dxilSignatureText,
  featureInfoText,
  hashText,
  isNewPsvDialect,
  partSignatureText,
  psvText,
  resourceBindingsText,
  viewIdText,
} from './header.js';
import type { Module } from './ir.js';
import { readModule, readModuleDeclarations } from './module.js';
import { ModulePrinter } from './printer.js';
import { readProgramHeader } from './program-header.js';
import { readPsv0 } from './psv0.js';
import { readRdat } from './rdat.js';
import { readIldn } from './parts.js';

/** The module's llvm.ident string (the compiler that wrote it). */
export function moduleIdent(m: Module): string | undefined {
  const n = m.named.find((x) => x.name === 'llvm.ident');
  const node = n ? m.metadata[n.ops[0] ?? -1] : undefined;
  if (node?.k !== 'node') return undefined;
  const str = m.metadata[(node.ops[0] ?? 0) - 1];
  return str?.k === 'string' ? str.s : undefined;
}

/** Reads the module of a DXIL, ILDB or STAT part. */
export function readPartModule(container: Container, kind: 'DXIL' | 'ILDB' | 'STAT'): Module | undefined {
  const p = container.parts.find((x) => x.kind === kind);
  if (!p) return undefined;
  const h = readProgramHeader(p.data, kind, p.offset + 8);
  return readModule(h.bitcode, { part: kind, offset: p.offset + 8 + h.bitcodeStart });
}

/** The declarations and metadata of a part's module, function bodies skipped (readModuleDeclarations). */
export function readPartDeclarations(container: Container, kind: 'DXIL' | 'ILDB' | 'STAT'): Module | undefined {
  const p = container.parts.find((x) => x.kind === kind);
  if (!p) return undefined;
  const h = readProgramHeader(p.data, kind, p.offset + 8);
  return readModuleDeclarations(h.bitcode, { part: kind, offset: p.offset + 8 + h.bitcodeStart });
}

export function disassembleDxil(container: Container): string {
  const part = (k: string): Uint8Array | undefined => container.parts.find((p) => p.kind === k)?.data;
  const offsetOf = (k: string): number => (container.parts.find((p) => p.kind === k)?.offset ?? 0) + 8;
  let s = '';
  const sfi0 = part('SFI0');
  const features = sfi0 ? readSfi0(sfi0, offsetOf('SFI0')).mask : 0n;
  if (sfi0) s += featureInfoText(features);
  const sigs: [string, 'ISG1' | 'OSG1' | 'PSG1', boolean][] = [
    ['Input', 'ISG1', true],
    ['Output', 'OSG1', false],
    ['Patch Constant', 'PSG1', false],
  ];
  for (const [name, kind, input] of sigs) {
    const d = part(kind);
    if (d) s += partSignatureText(name, readSignature(kind, d, offsetOf(kind)), input);
  }
  const ildn = part('ILDN');
  if (ildn) {
    const n = readIldn(ildn, offsetOf('ILDN')).name;
    if (n) s += `; shader debug name: ${n}\n`;
  }
  const hash = part('HASH');
  if (hash && hash.byteLength >= 20) {
    const flags = hash[0]! | (hash[1]! << 8) | (hash[2]! << 16) | (hash[3]! << 24);
    s += hashText(flags, hash.subarray(4, 20));
  }
  const progKind = container.parts.find((p) => p.kind === 'ILDB') ? 'ILDB' : 'DXIL';
  const prog = part(progKind);
  if (!prog) throw new IridiaError('E108_PART_MISSING', 'the container has no DXIL part to disassemble');
  const header = readProgramHeader(prog, progKind, offsetOf(progKind));
  const m = readModule(header.bitcode, { part: progKind, offset: offsetOf(progKind) + header.bitcodeStart });
  const psv = part('PSV0');
  if (psv) s += psvText(readPsv0(psv, offsetOf('PSV0')), header.kind, isNewPsvDialect(moduleIdent(m)));
  if (m.named.some((n) => n.name === 'dx.version')) {
    const info = readDxilInfo(m);
    const stat = readPartDeclarations(container, 'STAT');
    const refl = stat ? readDxilInfo(stat) : info;
    const kind = info.shaderKind ?? header.kind;
    if (kind !== 'lib') {
      const ep = info.entryPoints[0];
      if (ep) {
        s += dxilSignatureText('Input', ep.inputs);
        if (kind === 'ms') {
          s += dxilSignatureText('Vertex Output', ep.outputs);
          s += dxilSignatureText('Primitive Output', ep.patchConstant);
        } else {
          s += dxilSignatureText('Output', ep.outputs);
          s += dxilSignatureText('Patch Constant', ep.patchConstant);
        }
      }
    }
    // Minimum precision unless the program uses native 16-bit types (SFI0 bit 18).
    const minPrecision = ((features >> 18n) & 1n) === 0n;
    s += bufferDefinitionsText(refl, minPrecision, (stat ?? m).datalayout);
    s += resourceBindingsText(refl);
    const usesViewId = ((features >> 16n) & 1n) !== 0n;
    s += viewIdText(refl, kind, usesViewId);
    const rdat = part('RDAT');
    if (rdat) s += subobjectsText(readRdat(rdat, offsetOf('RDAT')).subobjects);
  }
  return s + new ModulePrinter(m, dxcInstructionComment).print();
}
