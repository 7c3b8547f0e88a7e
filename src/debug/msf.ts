// MSF 7.00, Microsoft's multi-stream file: the container a PDB lives in, and what an SPDB part holds
// (spec: containers.md, "Debug information in Shader Model 4 and 5 (SPDB)"). A superblock names the
// block size and the block that lists the stream directory's blocks; the directory gives each
// stream's size and block list. Every count is checked against the bytes there are before anything
// is allocated, and a block list may name each block once only (a list that loops is refused).

import { ByteReader } from '../binary/reader.js';
import { IridiaError, hex } from '../errors.js';

const MAGIC = 'Microsoft C/C++ MSF 7.00\r\n\x1aDS\0\0\0';
const NIL_STREAM = 0xffffffff;

export interface Msf {
  readonly blockSize: number;
  readonly blockCount: number;
  /** The size of each stream in bytes; undefined for a nil stream. */
  readonly streamSizes: readonly (number | undefined)[];
  /** A stream's bytes (copied together from its blocks), or undefined for a nil or absent stream. */
  stream(index: number): Uint8Array | undefined;
}

/** True when the bytes start with the MSF 7.00 magic. */
export function isMsf(bytes: Uint8Array): boolean {
  if (bytes.byteLength < MAGIC.length) return false;
  for (let i = 0; i < MAGIC.length; i++) if (bytes[i] !== MAGIC.charCodeAt(i)) return false;
  return true;
}

/** Reads the superblock and the stream directory. `where` names the data in errors ('SPDB'). */
export function readMsf(bytes: Uint8Array, where = 'SPDB', base = 0): Msf {
  const r = new ByteReader(bytes, { where, base, code: 'E503_MSF_BAD' });
  const bad = (reason: string, offset: number): IridiaError =>
    new IridiaError('E503_MSF_BAD', reason, { offset: base + offset, part: where });
  if (!isMsf(bytes)) throw bad('the data does not start with the MSF 7.00 magic', 0);
  const blockSize = r.u32At(0x20, 'the block size');
  if (blockSize < 32 || blockSize > 0x10000 || (blockSize & (blockSize - 1)) !== 0)
    throw bad(`the block size ${blockSize} is not a power of two from 32 to 65536`, 0x20);
  const blockCount = r.u32At(0x28, 'the block count');
  const fileBlocks = Math.ceil(bytes.byteLength / blockSize);
  if (blockCount > fileBlocks)
    throw bad(
      `the block count ${blockCount} is more than the ${fileBlocks} blocks of the ${bytes.byteLength} bytes`,
      0x28,
    );
  const directorySize = r.u32At(0x2c, 'the stream directory size');
  const blockMapAddress = r.u32At(0x34, 'the block map address');

  const blockOffset = (block: number, at: number, what: string): number => {
    if (block >= blockCount || block === 0)
      throw bad(`${what} names block ${block}, outside blocks 1 to ${blockCount - 1}`, at);
    const offset = block * blockSize;
    if (offset >= bytes.byteLength) throw bad(`${what} names block ${block} at ${hex(offset)}, past the end`, at);
    return offset;
  };

  // Gathers `size` bytes from the blocks whose numbers are at blockAt(i), each block used once.
  const gather = (size: number, blockAt: (i: number) => number, what: string): Uint8Array => {
    const n = Math.ceil(size / blockSize);
    if (n > blockCount) throw bad(`${what} of ${size} bytes needs ${n} blocks, more than the file's ${blockCount}`, 0);
    const seen = new Set<number>();
    const blocks: number[] = [];
    for (let i = 0; i < n; i++) {
      const at = blockAt(i);
      const block = r.u32At(at, `${what}'s block ${i}`);
      if (seen.has(block)) throw bad(`${what}'s block list names block ${block} twice (a loop)`, at);
      seen.add(block);
      blockOffset(block, at, `${what}'s block list`);
      blocks.push(block);
    }
    const data = new Uint8Array(size);
    for (let i = 0; i < n; i++) {
      const off = blocks[i]! * blockSize;
      const len = Math.min(blockSize, size - i * blockSize);
      data.set(r.slice(off, len, `${what}'s block ${blocks[i]!}`), i * blockSize);
    }
    return data;
  };

  // The block map: the blocks of the directory, listed in the block at blockMapAddress.
  const mapOffset = blockOffset(blockMapAddress, 0x34, 'the block map address');
  const dirBlocks = Math.ceil(directorySize / blockSize);
  if (dirBlocks * 4 > blockSize)
    throw bad(`the stream directory of ${directorySize} bytes needs more block numbers than one block holds`, 0x2c);
  const directory = gather(directorySize, (i) => mapOffset + 4 * i, 'the stream directory');
  const d = new ByteReader(directory, { where: `${where} stream directory`, code: 'E503_MSF_BAD' });
  const streamCount = d.u32At(0, 'the stream count');
  if (streamCount > (directory.byteLength - 4) / 4 || streamCount > blockCount)
    throw new IridiaError(
      'E503_MSF_BAD',
      `the stream count ${streamCount} is too large for a directory of ${directory.byteLength} bytes in ${blockCount} blocks`,
      { offset: 0, part: `${where} stream directory` },
    );
  const sizes: (number | undefined)[] = [];
  let listAt = 4 + 4 * streamCount;
  const listStarts: number[] = [];
  for (let s = 0; s < streamCount; s++) {
    const size = d.u32At(4 + 4 * s, `stream ${s}'s size`);
    sizes.push(size === NIL_STREAM ? undefined : size);
    listStarts.push(listAt);
    if (size !== NIL_STREAM) {
      const n = Math.ceil(size / blockSize);
      if (n > blockCount)
        throw new IridiaError(
          'E503_MSF_BAD',
          `stream ${s}'s size ${size} needs more blocks than the file's ${blockCount}`,
          {
            offset: 4 + 4 * s,
            part: `${where} stream directory`,
          },
        );
      listAt += 4 * n;
    }
  }
  d.require(0, listAt, 'the block lists of the stream directory');

  const cache = new Map<number, Uint8Array>();
  return {
    blockSize,
    blockCount,
    streamSizes: sizes,
    stream(index: number): Uint8Array | undefined {
      const size = sizes[index];
      if (size === undefined) return undefined;
      const hit = cache.get(index);
      if (hit) return hit;
      const start = listStarts[index]!;
      const n = Math.ceil(size / blockSize);
      const seen = new Set<number>();
      const data = new Uint8Array(size);
      for (let i = 0; i < n; i++) {
        const block = d.u32At(start + 4 * i);
        if (seen.has(block))
          throw new IridiaError('E503_MSF_BAD', `stream ${index}'s block list names block ${block} twice (a loop)`, {
            offset: start + 4 * i,
            part: `${where} stream directory`,
          });
        seen.add(block);
        if (block === 0 || block >= blockCount || block * blockSize >= bytes.byteLength)
          throw new IridiaError(
            'E503_MSF_BAD',
            `stream ${index}'s block list names block ${block}, outside the file's ${blockCount} blocks`,
            { offset: start + 4 * i, part: `${where} stream directory` },
          );
        const len = Math.min(blockSize, size - i * blockSize);
        data.set(r.slice(block * blockSize, len, `stream ${index}'s block ${block}`), i * blockSize);
      }
      cache.set(index, data);
      return data;
    },
  };
}
