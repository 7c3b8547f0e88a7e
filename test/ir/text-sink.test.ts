// TextSink (src/wgsl/text-sink.ts): the WGSL emitter writes its text as bytes into one buffer lent
// from module to module, and makes it a string once (issue 17: a rope of every piece was copied by
// the young collections and joined at the end). The string made must be the one written, code unit
// for code unit, whatever the pieces hold (a code unit over 0x7F is kept beside the bytes), and
// wherever a range starts and ends.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  SinkBuffer,
  TextSink,
  decodeWithNodeBuffer,
  decodeWithTextDecoder,
  defaultDecoder,
} from '../../src/wgsl/text-sink.js';
import { lift } from '../../src/lift/lift.js';
import { emitModuleWgsl, emitModuleWgslWithMap } from '../../src/wgsl/emit.js';
import { lowerForWgsl } from '../../src/wgsl/passes.js';

/** A small generator, so that a failure can be run again. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const ALPHABET = [
  'a',
  'Z',
  '0',
  ' ',
  '\n',
  '(',
  '\u007f',
  '\u0080',
  '\u00e9',
  '\u00ff',
  '\u0100',
  '\u2713',
  '\ud83d',
  '\ude00',
];

// Node has two decoders of the bytes (a Buffer's, used where it exists, and TextDecoder's, every
// platform's); both are held to the same text.
const DECODERS = [
  ['Buffer', decodeWithNodeBuffer],
  ['TextDecoder', decodeWithTextDecoder],
] as const;

test('under Node a sink decodes with the Buffer decoder (TextDecoder elsewhere)', () => {
  assert.ok(decodeWithNodeBuffer, 'globalThis.Buffer exists under Node');
  assert.equal(defaultDecoder, decodeWithNodeBuffer);
});

for (const [decoderName, decoder] of DECODERS)
  test(`every range of the text is the text written, pieces with code units over 0x7F included (${decoderName})`, () => {
    assert.ok(decoder);
    everyRange(decoder);
  });

function everyRange(decoder: NonNullable<(typeof DECODERS)[number][1]>): void {
  for (let seed = 1; seed <= 40; seed++) {
    const r = random(seed);
    // a tiny buffer first, so that the sink grows several times
    const sink = new TextSink(new Uint8Array(4), decoder);
    let expected = '';
    const pieces = 5 + Math.floor(r() * 60);
    for (let k = 0; k < pieces; k++) {
      let piece = '';
      const n = Math.floor(r() * 12);
      // most pieces ASCII, as the emitter's are
      const wide = r() < 0.2;
      for (let i = 0; i < n; i++) piece += ALPHABET[Math.floor(r() * (wide ? ALPHABET.length : 6))];
      const choice = r();
      if (choice < 0.1) {
        sink.prependJoined([piece], '', '');
        expected = piece + expected;
      } else if (choice < 0.15) {
        // the piece cut in two, joined by a separator, with an ending (as the emitter's header)
        const cut = Math.floor(r() * (piece.length + 1));
        const parts = [piece.slice(0, cut), piece.slice(cut)];
        const separator = r() < 0.5 ? '\n' : 'é,';
        const last = r() < 0.5 ? '' : '\n';
        sink.prependJoined(parts, separator, last);
        expected = parts.join(separator) + last + expected;
      } else {
        sink.write(piece);
        expected += piece;
      }
    }
    assert.equal(sink.pos, expected.length, `seed ${seed}`);
    assert.equal(sink.text(), expected, `seed ${seed}`);
    for (let k = 0; k < 30; k++) {
      const a = Math.floor(r() * (expected.length + 1));
      const b = a + Math.floor(r() * (expected.length + 1 - a));
      assert.equal(sink.text(a, b), expected.slice(a, b), `seed ${seed}, ${a} to ${b}`);
    }
    for (let i = 0; i < expected.length; i++) {
      const c = expected.charCodeAt(i);
      assert.equal(sink.byteAt(i), c <= 0x7f ? c : 0, `seed ${seed}, byte ${i}`);
    }
  }
}

test('every byte value up to 0x7F decodes to its own code unit, a range of the buffer as much as its whole', () => {
  const all = Array.from({ length: 0x80 }, (_, c) => String.fromCharCode(c)).join('');
  for (const [decoderName, decoder] of DECODERS) {
    assert.ok(decoder);
    const sink = new TextSink(new Uint8Array(3), decoder);
    sink.write(all);
    sink.write(all);
    assert.equal(sink.text(), all + all, decoderName);
    assert.equal(sink.text(5, 0x85), all.slice(5) + all.slice(0, 5), decoderName);
    // the view starts where the sink's bytes start, not at its ArrayBuffer's start
    const backing = new Uint8Array(64).fill(0x41);
    const offset = new TextSink(backing.subarray(16, 48), decoder);
    offset.write('xyz');
    assert.equal(offset.text(), 'xyz', decoderName);
  }
});

test('the buffer is lent to one sink at a time, and kept only within its bound', () => {
  const pool = new SinkBuffer(1 << 20);
  const a = pool.take();
  a.write('first');
  const b = pool.take();
  assert.notEqual(b.buffer, a.buffer, 'a second taker while the first holds it gets its own buffer');
  pool.give(a);
  const c = pool.take();
  assert.equal(c.buffer, a.buffer, 'the buffer given back is lent again');
  assert.equal(c.pos, 0);
  assert.equal(c.text(), '', 'a sink lent again starts empty');
  c.write('x'.repeat((1 << 20) + 1));
  pool.give(c);
  assert.notEqual(pool.take().buffer, c.buffer, 'a buffer grown over the bound is not kept');
});

test("the emitter's text keeps a header's code units over 0x7F, and the line map's text is the same", () => {
  const program = lift(
    new Uint8Array(
      readFileSync(
        join(import.meta.dirname, '..', 'fixtures', 'lift', 'cs_prefix_sum', 'main-cs_5_0-zi-od', 'shader.dxbc'),
      ),
    ),
  );
  const m = lowerForWgsl(program.module);
  const header = ['caf\u00e9 \u2713 \ud83d\ude00 \u00ff\u0100', 'plain'];
  const text = emitModuleWgsl(m, { header });
  assert.ok(text.startsWith(`// ${header[0]}\n// plain\n`), text.slice(0, 80));
  assert.equal(emitModuleWgslWithMap(m, { header }).text, text);
  assert.equal(text, `// ${header[0]}\n// plain\n${emitModuleWgsl(m)}`);
});
