// Serialize, sign and edit (containers.md, "Container": a container is fixed by its parts; the digest
// and sizes are the only derived fields), and the digest over large and unaligned inputs, where it
// takes its chunked-copy path, against node:crypto's MD5 over the same block function.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { md5, containerDigest } from '../../src/container/digest.js';
import {
  parseContainer,
  digestState,
  editContainer,
  signContainer,
  serializeContainer,
  rewriteContainer,
} from '../../src/container/container.js';
import { IridiaError } from '../../src/errors.js';
import { FIXTURES, readBytes } from '../helpers/shared.js';

const VS = readBytes(join(FIXTURES, 'oracle/own/vs_basic/main-vs_5_0/shader.dxbc'));

test('the block function matches node:crypto over large, aligned and unaligned inputs', () => {
  const big = new Uint8Array((1 << 17) + 200 + 3);
  for (let i = 0; i < big.length; i++) big[i] = (i * 2654435761) >>> 24;
  for (const shift of [0, 1, 2, 3, 4]) {
    for (const n of [64, 1000, 1 << 16, (1 << 16) + 64, (1 << 17) + 57, (1 << 17) + 200]) {
      const data = big.subarray(shift, shift + n);
      assert.equal(
        Buffer.from(md5(data)).toString('hex'),
        createHash('md5').update(data).digest('hex'),
        `length ${n} at byte offset ${shift}`,
      );
    }
  }
});

test('the container digest is the same whatever the alignment of the bytes', () => {
  for (const shift of [1, 2, 3]) {
    const buf = new Uint8Array(VS.byteLength + shift);
    buf.set(VS, shift);
    assert.deepEqual(containerDigest(buf.subarray(shift)), VS.subarray(4, 20), `shifted by ${shift}`);
  }
});

test('sign recomputes only the digest; a stale container becomes valid', () => {
  const stale = VS.slice();
  stale[100] = stale[100]! ^ 0xff;
  assert.equal(digestState(parseContainer(stale)), 'stale');
  const signed = signContainer(stale);
  assert.equal(digestState(parseContainer(signed)), 'valid');
  assert.deepEqual(signed.subarray(20), stale.subarray(20));
  const unsigned = VS.slice();
  unsigned.fill(0, 4, 20);
  assert.equal(digestState(parseContainer(unsigned)), 'unsigned');
  assert.deepEqual(signContainer(unsigned), VS);
});

test('replace, add and remove write a re-signed container with the new directory', () => {
  const c = parseContainer(VS);
  const kinds = c.parts.map((p) => p.kind);
  const data = new Uint8Array([1, 2, 3, 4, 5]); // an odd size: parts need not be multiples of four
  const replaced = parseContainer(editContainer(c, { op: 'replace', kind: kinds[0]!, data }));
  assert.deepEqual(
    replaced.parts.map((p) => p.kind),
    kinds,
  );
  assert.deepEqual(replaced.parts[0]!.data, data);
  assert.equal(digestState(replaced), 'valid');
  assert.deepEqual(replaced.findings, []);
  for (let i = 1; i < kinds.length; i++) assert.deepEqual(replaced.parts[i]!.data, c.parts[i]!.data);

  const added = parseContainer(editContainer(c, { op: 'add', kind: 'XTRA', data }));
  assert.deepEqual(
    added.parts.map((p) => p.kind),
    [...kinds, 'XTRA'],
  );
  assert.equal(digestState(added), 'valid');
  assert.equal(added.totalSize, VS.byteLength + 4 + 8 + 5);

  const removed = parseContainer(editContainer(c, { op: 'remove', kind: kinds[1]! }));
  assert.deepEqual(
    removed.parts.map((p) => p.kind),
    kinds.filter((_, i) => i !== 1),
  );
  assert.equal(digestState(removed), 'valid');
  // Putting the original part back in place gives the original bytes.
  const back = editContainer(c, { op: 'replace', kind: kinds[0]!, data: c.parts[0]!.data });
  assert.deepEqual(back, VS);

  assert.throws(
    () => editContainer(c, { op: 'remove', kind: 'NONE' }),
    (e: unknown) => e instanceof IridiaError && e.code === 'E108_PART_MISSING',
  );
  assert.throws(
    () => editContainer(c, { op: 'add', kind: kinds[0]!, data }),
    (e: unknown) => e instanceof IridiaError && e.code === 'E109_BAD_ARGUMENT',
  );
});

test('serialize is the inverse of parse', () => {
  const c = parseContainer(VS);
  assert.deepEqual(serializeContainer(c.parts), VS);
  assert.deepEqual(rewriteContainer(c), VS);
});
