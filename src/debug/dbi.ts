// The DBI stream (stream 3) of a PDB: its 64-byte header and the module list, whose records name
// each module's stream and the sizes of its symbols and C13 line information (spec:
// containers.md, "Debug information in Shader Model 4 and 5 (SPDB)", stream 3). An SPDB lists one
// module.

import { ByteReader } from '../binary/reader.js';

export interface DbiModule {
  readonly name: string;
  readonly objectName: string;
  /** The module's stream, or undefined (0xffff) when it has none. */
  readonly stream: number | undefined;
  /** Bytes of symbols, the 4-byte signature included. */
  readonly symbolBytes: number;
  readonly c11Bytes: number;
  readonly c13Bytes: number;
}

export interface Dbi {
  readonly age: number;
  readonly modules: readonly DbiModule[];
}

const HEADER_SIZE = 64;
const MODULE_FIXED = 64;

export function readDbi(bytes: Uint8Array, where = 'SPDB stream 3'): Dbi {
  const r = new ByteReader(bytes, { where, code: 'E504_DEBUG_BAD' });
  const signature = r.i32At(0, 'the DBI signature');
  if (signature !== -1) throw r.fail('E504_DEBUG_BAD', `the DBI signature is ${signature}, not -1`, 0);
  const age = r.u32At(8, 'the DBI age');
  const moduleBytes = r.i32At(0x18, 'the module list size');
  if (moduleBytes < 0) throw r.fail('E504_DEBUG_BAD', `the module list size ${moduleBytes} is negative`, 0x18);
  const list = r.sub(HEADER_SIZE, moduleBytes, 'the module list');
  const modules: DbiModule[] = [];
  let at = 0;
  while (at < list.length) {
    list.require(at, MODULE_FIXED, 'a module record');
    const flags = list.u16At(at + 0x20);
    void flags;
    const stream = list.u16At(at + 0x22);
    const symbolBytes = list.u32At(at + 0x24);
    const c11Bytes = list.u32At(at + 0x28);
    const c13Bytes = list.u32At(at + 0x2c);
    const name = list.cstringAt(at + MODULE_FIXED, 'a module name');
    const objectAt = at + MODULE_FIXED + name.length + 1;
    const objectName = list.cstringAt(objectAt, 'a module object name');
    modules.push({ name, objectName, stream: stream === 0xffff ? undefined : stream, symbolBytes, c11Bytes, c13Bytes });
    at = (objectAt + objectName.length + 1 + 3) & ~3;
  }
  return { age, modules };
}
