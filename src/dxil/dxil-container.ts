// Every part of a DXIL container decoded (DxilContainer.h's part list): SFI0, ISG1/OSG1/PSG1, PSV0,
// RTS0, STAT (a second module), ILDN, ILDB (the debug module), HASH, VERS, SRCI, RDAT and the DXIL
// program with its header and module. A part of an unknown kind is listed, not refused.

import type { Container } from '../container/container.js';
import { readSfi0, type FeatureInfo } from '../parts/sfi0.js';
import { isSignatureKind, readSignature, type Signature } from '../parts/signature.js';
import type { Module } from './ir.js';
import { readModule } from './module.js';
import {
  readHash,
  readIldn,
  readSrci,
  readVers,
  type CompilerVersion,
  type Ildn,
  type ShaderHash,
  type SourceInfoSection,
} from './parts.js';
import { readProgramHeader, type DxilProgramHeader } from './program-header.js';
import { readPsv0, type Psv0 } from './psv0.js';
import { readRdat, type Rdat } from './rdat.js';
import { readRts0, type RootSignature } from './rts0.js';

export interface DxilProgram {
  readonly header: DxilProgramHeader;
  readonly module: Module;
}

export interface DxilContainer {
  readonly features?: FeatureInfo;
  readonly signatures: Readonly<Partial<Record<'ISG1' | 'OSG1' | 'PSG1', Signature>>>;
  readonly psv?: Psv0;
  readonly rootSignature?: RootSignature;
  readonly program?: DxilProgram;
  readonly reflection?: DxilProgram;
  readonly debug?: DxilProgram;
  readonly debugName?: Ildn;
  readonly hash?: ShaderHash;
  readonly compilerVersion?: CompilerVersion;
  readonly sourceInfo?: readonly SourceInfoSection[];
  readonly runtimeData?: Rdat;
  /** Parts this reader does not decode (kinds). */
  readonly otherParts: readonly string[];
}

function program(data: Uint8Array, kind: string, offset: number): DxilProgram {
  const header = readProgramHeader(data, kind, offset);
  return { header, module: readModule(header.bitcode, { part: kind, offset: offset + header.bitcodeStart }) };
}

/** Decodes every part of a DXIL container. Throws IridiaError for a part that cannot be read. */
export function readDxilContainer(c: Container): DxilContainer {
  const out: { -readonly [K in keyof DxilContainer]: DxilContainer[K] } = { signatures: {}, otherParts: [] };
  const sigs: Partial<Record<'ISG1' | 'OSG1' | 'PSG1', Signature>> = {};
  const other: string[] = [];
  for (const p of c.parts) {
    const at = p.offset + 8;
    switch (p.kind) {
      case 'SFI0':
        out.features = readSfi0(p.data, at);
        break;
      case 'ISG1':
      case 'OSG1':
      case 'PSG1':
        if (isSignatureKind(p.kind)) sigs[p.kind] = readSignature(p.kind, p.data, at);
        break;
      case 'PSV0':
        out.psv = readPsv0(p.data, at);
        break;
      case 'RTS0':
        out.rootSignature = readRts0(p.data, at);
        break;
      case 'DXIL':
        out.program = program(p.data, 'DXIL', at);
        break;
      case 'STAT':
        out.reflection = program(p.data, 'STAT', at);
        break;
      case 'ILDB':
        out.debug = program(p.data, 'ILDB', at);
        break;
      case 'ILDN':
        out.debugName = readIldn(p.data, at);
        break;
      case 'HASH':
        out.hash = readHash(p.data, at);
        break;
      case 'VERS':
        out.compilerVersion = readVers(p.data, at);
        break;
      case 'SRCI':
        out.sourceInfo = readSrci(p.data, at);
        break;
      case 'RDAT':
        out.runtimeData = readRdat(p.data, at);
        break;
      default:
        other.push(p.kind);
    }
  }
  out.signatures = sigs;
  out.otherParts = other;
  return out;
}
