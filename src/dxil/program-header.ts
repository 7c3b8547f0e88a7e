// The DXIL program header (DxilContainer.h's DxilProgramHeader and DxilBitcodeHeader) at the start
// of a DXIL, ILDB or STAT part: program version and kind, size in dwords, the 'DXIL' magic, the DXIL
// version, and the offset (from the magic) and size of the LLVM bitcode.

import { ByteReader } from '../binary/reader.js';
import { hex } from '../errors.js';
import { programTypeName } from '../container/program.js';

export const DXIL_MAGIC = 0x4c495844; // 'DXIL'

export interface DxilProgramHeader {
  readonly programVersion: number;
  /** 'ps', 'vs', 'lib'... */
  readonly kind: string;
  readonly kindCode: number;
  readonly major: number;
  readonly minor: number;
  readonly sizeInDwords: number;
  readonly dxilMajor: number;
  readonly dxilMinor: number;
  readonly bitcodeOffset: number;
  readonly bitcodeSize: number;
  /** The bitcode: a view into the part. */
  readonly bitcode: Uint8Array;
  /** Offset of the bitcode within the part's data. */
  readonly bitcodeStart: number;
}

export function readProgramHeader(data: Uint8Array, part = 'DXIL', base = 0): DxilProgramHeader {
  const r = new ByteReader(data, { where: part, base, code: 'E201_PART_TRUNCATED' });
  const programVersion = r.u32At(0, 'the program version');
  const sizeInDwords = r.u32At(4, 'the size in dwords');
  const magic = r.u32At(8, 'the DXIL magic');
  if (magic !== DXIL_MAGIC)
    throw r.fail('E207_PART_BAD_VALUE', `the program header's magic is ${hex(magic)}, not 'DXIL'`, 8);
  const version = r.u32At(12, 'the DXIL version');
  const bitcodeOffset = r.u32At(16, 'the bitcode offset');
  const bitcodeSize = r.u32At(20, 'the bitcode size');
  if (sizeInDwords * 4 > data.byteLength)
    throw r.fail(
      'E202_PART_BAD_OFFSET',
      `the program claims ${sizeInDwords} dwords, more than the part's ${data.byteLength} bytes`,
      4,
    );
  const bitcodeStart = 8 + bitcodeOffset;
  const bitcode = r.slice(bitcodeStart, bitcodeSize, 'the bitcode');
  const kindCode = programVersion >>> 16;
  return {
    programVersion,
    kind: programTypeName(kindCode),
    kindCode,
    major: (programVersion >>> 4) & 0xf,
    minor: programVersion & 0xf,
    sizeInDwords,
    dxilMajor: (version >>> 8) & 0xff,
    dxilMinor: version & 0xff,
    bitcodeOffset,
    bitcodeSize,
    bitcode,
    bitcodeStart,
  };
}
