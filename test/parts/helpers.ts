// Fixture access for the part-reader tests.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseContainer, type Container } from '../../src/container/container.js';
import { FIXTURES, readBytes } from '../helpers/shared.js';

export function fixture(path: string): Container {
  return parseContainer(readBytes(join(FIXTURES, path)));
}

export function partData(c: Container, kind: string): Uint8Array {
  const p = c.parts.find((q) => q.kind === kind);
  assert.ok(p, `the fixture has a ${kind} part`);
  return p.data;
}
