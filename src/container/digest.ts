// The container digest (containers.md, "Container"; corpus/README.md, "The digest"): MD5's block
// function (RFC 1321 constants, rounds and initial state) over bytes 20..end, with the compiler's own
// final padding: the bit count first in the last block, then the remaining bytes, 0x80, zeros, and at
// byte 60 (bits >> 2) | 1; a remainder of 56..63 bytes is padded in a block of its own first.
// The rounds below are unrolled by hand-written generator output for speed (see bench/run.ts).

const scratch = new Uint32Array(16);
const scratchBytes = new Uint8Array(scratch.buffer);
const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

interface State {
  a: number;
  b: number;
  c: number;
  d: number;
}

/** Runs the block function over 16 words at `at` (a word index) of `x`. */
function block(s: State, x: Uint32Array, at: number): void {
  let a = s.a;
  let b = s.b;
  let c = s.c;
  let d = s.d;
  const w0 = x[at]! | 0,
    w1 = x[at + 1]! | 0,
    w2 = x[at + 2]! | 0,
    w3 = x[at + 3]! | 0;
  const w4 = x[at + 4]! | 0,
    w5 = x[at + 5]! | 0,
    w6 = x[at + 6]! | 0,
    w7 = x[at + 7]! | 0;
  const w8 = x[at + 8]! | 0,
    w9 = x[at + 9]! | 0,
    w10 = x[at + 10]! | 0,
    w11 = x[at + 11]! | 0;
  const w12 = x[at + 12]! | 0,
    w13 = x[at + 13]! | 0,
    w14 = x[at + 14]! | 0,
    w15 = x[at + 15]! | 0;
  a = (a + (d ^ (b & (c ^ d))) + w0 + 0xd76aa478) | 0;
  a = (((a << 7) | (a >>> 25)) + b) | 0;
  d = (d + (c ^ (a & (b ^ c))) + w1 + 0xe8c7b756) | 0;
  d = (((d << 12) | (d >>> 20)) + a) | 0;
  c = (c + (b ^ (d & (a ^ b))) + w2 + 0x242070db) | 0;
  c = (((c << 17) | (c >>> 15)) + d) | 0;
  b = (b + (a ^ (c & (d ^ a))) + w3 + 0xc1bdceee) | 0;
  b = (((b << 22) | (b >>> 10)) + c) | 0;
  a = (a + (d ^ (b & (c ^ d))) + w4 + 0xf57c0faf) | 0;
  a = (((a << 7) | (a >>> 25)) + b) | 0;
  d = (d + (c ^ (a & (b ^ c))) + w5 + 0x4787c62a) | 0;
  d = (((d << 12) | (d >>> 20)) + a) | 0;
  c = (c + (b ^ (d & (a ^ b))) + w6 + 0xa8304613) | 0;
  c = (((c << 17) | (c >>> 15)) + d) | 0;
  b = (b + (a ^ (c & (d ^ a))) + w7 + 0xfd469501) | 0;
  b = (((b << 22) | (b >>> 10)) + c) | 0;
  a = (a + (d ^ (b & (c ^ d))) + w8 + 0x698098d8) | 0;
  a = (((a << 7) | (a >>> 25)) + b) | 0;
  d = (d + (c ^ (a & (b ^ c))) + w9 + 0x8b44f7af) | 0;
  d = (((d << 12) | (d >>> 20)) + a) | 0;
  c = (c + (b ^ (d & (a ^ b))) + w10 + 0xffff5bb1) | 0;
  c = (((c << 17) | (c >>> 15)) + d) | 0;
  b = (b + (a ^ (c & (d ^ a))) + w11 + 0x895cd7be) | 0;
  b = (((b << 22) | (b >>> 10)) + c) | 0;
  a = (a + (d ^ (b & (c ^ d))) + w12 + 0x6b901122) | 0;
  a = (((a << 7) | (a >>> 25)) + b) | 0;
  d = (d + (c ^ (a & (b ^ c))) + w13 + 0xfd987193) | 0;
  d = (((d << 12) | (d >>> 20)) + a) | 0;
  c = (c + (b ^ (d & (a ^ b))) + w14 + 0xa679438e) | 0;
  c = (((c << 17) | (c >>> 15)) + d) | 0;
  b = (b + (a ^ (c & (d ^ a))) + w15 + 0x49b40821) | 0;
  b = (((b << 22) | (b >>> 10)) + c) | 0;
  a = (a + (c ^ (d & (b ^ c))) + w1 + 0xf61e2562) | 0;
  a = (((a << 5) | (a >>> 27)) + b) | 0;
  d = (d + (b ^ (c & (a ^ b))) + w6 + 0xc040b340) | 0;
  d = (((d << 9) | (d >>> 23)) + a) | 0;
  c = (c + (a ^ (b & (d ^ a))) + w11 + 0x265e5a51) | 0;
  c = (((c << 14) | (c >>> 18)) + d) | 0;
  b = (b + (d ^ (a & (c ^ d))) + w0 + 0xe9b6c7aa) | 0;
  b = (((b << 20) | (b >>> 12)) + c) | 0;
  a = (a + (c ^ (d & (b ^ c))) + w5 + 0xd62f105d) | 0;
  a = (((a << 5) | (a >>> 27)) + b) | 0;
  d = (d + (b ^ (c & (a ^ b))) + w10 + 0x02441453) | 0;
  d = (((d << 9) | (d >>> 23)) + a) | 0;
  c = (c + (a ^ (b & (d ^ a))) + w15 + 0xd8a1e681) | 0;
  c = (((c << 14) | (c >>> 18)) + d) | 0;
  b = (b + (d ^ (a & (c ^ d))) + w4 + 0xe7d3fbc8) | 0;
  b = (((b << 20) | (b >>> 12)) + c) | 0;
  a = (a + (c ^ (d & (b ^ c))) + w9 + 0x21e1cde6) | 0;
  a = (((a << 5) | (a >>> 27)) + b) | 0;
  d = (d + (b ^ (c & (a ^ b))) + w14 + 0xc33707d6) | 0;
  d = (((d << 9) | (d >>> 23)) + a) | 0;
  c = (c + (a ^ (b & (d ^ a))) + w3 + 0xf4d50d87) | 0;
  c = (((c << 14) | (c >>> 18)) + d) | 0;
  b = (b + (d ^ (a & (c ^ d))) + w8 + 0x455a14ed) | 0;
  b = (((b << 20) | (b >>> 12)) + c) | 0;
  a = (a + (c ^ (d & (b ^ c))) + w13 + 0xa9e3e905) | 0;
  a = (((a << 5) | (a >>> 27)) + b) | 0;
  d = (d + (b ^ (c & (a ^ b))) + w2 + 0xfcefa3f8) | 0;
  d = (((d << 9) | (d >>> 23)) + a) | 0;
  c = (c + (a ^ (b & (d ^ a))) + w7 + 0x676f02d9) | 0;
  c = (((c << 14) | (c >>> 18)) + d) | 0;
  b = (b + (d ^ (a & (c ^ d))) + w12 + 0x8d2a4c8a) | 0;
  b = (((b << 20) | (b >>> 12)) + c) | 0;
  a = (a + (b ^ c ^ d) + w5 + 0xfffa3942) | 0;
  a = (((a << 4) | (a >>> 28)) + b) | 0;
  d = (d + (a ^ b ^ c) + w8 + 0x8771f681) | 0;
  d = (((d << 11) | (d >>> 21)) + a) | 0;
  c = (c + (d ^ a ^ b) + w11 + 0x6d9d6122) | 0;
  c = (((c << 16) | (c >>> 16)) + d) | 0;
  b = (b + (c ^ d ^ a) + w14 + 0xfde5380c) | 0;
  b = (((b << 23) | (b >>> 9)) + c) | 0;
  a = (a + (b ^ c ^ d) + w1 + 0xa4beea44) | 0;
  a = (((a << 4) | (a >>> 28)) + b) | 0;
  d = (d + (a ^ b ^ c) + w4 + 0x4bdecfa9) | 0;
  d = (((d << 11) | (d >>> 21)) + a) | 0;
  c = (c + (d ^ a ^ b) + w7 + 0xf6bb4b60) | 0;
  c = (((c << 16) | (c >>> 16)) + d) | 0;
  b = (b + (c ^ d ^ a) + w10 + 0xbebfbc70) | 0;
  b = (((b << 23) | (b >>> 9)) + c) | 0;
  a = (a + (b ^ c ^ d) + w13 + 0x289b7ec6) | 0;
  a = (((a << 4) | (a >>> 28)) + b) | 0;
  d = (d + (a ^ b ^ c) + w0 + 0xeaa127fa) | 0;
  d = (((d << 11) | (d >>> 21)) + a) | 0;
  c = (c + (d ^ a ^ b) + w3 + 0xd4ef3085) | 0;
  c = (((c << 16) | (c >>> 16)) + d) | 0;
  b = (b + (c ^ d ^ a) + w6 + 0x04881d05) | 0;
  b = (((b << 23) | (b >>> 9)) + c) | 0;
  a = (a + (b ^ c ^ d) + w9 + 0xd9d4d039) | 0;
  a = (((a << 4) | (a >>> 28)) + b) | 0;
  d = (d + (a ^ b ^ c) + w12 + 0xe6db99e5) | 0;
  d = (((d << 11) | (d >>> 21)) + a) | 0;
  c = (c + (d ^ a ^ b) + w15 + 0x1fa27cf8) | 0;
  c = (((c << 16) | (c >>> 16)) + d) | 0;
  b = (b + (c ^ d ^ a) + w2 + 0xc4ac5665) | 0;
  b = (((b << 23) | (b >>> 9)) + c) | 0;
  a = (a + (c ^ (b | ~d)) + w0 + 0xf4292244) | 0;
  a = (((a << 6) | (a >>> 26)) + b) | 0;
  d = (d + (b ^ (a | ~c)) + w7 + 0x432aff97) | 0;
  d = (((d << 10) | (d >>> 22)) + a) | 0;
  c = (c + (a ^ (d | ~b)) + w14 + 0xab9423a7) | 0;
  c = (((c << 15) | (c >>> 17)) + d) | 0;
  b = (b + (d ^ (c | ~a)) + w5 + 0xfc93a039) | 0;
  b = (((b << 21) | (b >>> 11)) + c) | 0;
  a = (a + (c ^ (b | ~d)) + w12 + 0x655b59c3) | 0;
  a = (((a << 6) | (a >>> 26)) + b) | 0;
  d = (d + (b ^ (a | ~c)) + w3 + 0x8f0ccc92) | 0;
  d = (((d << 10) | (d >>> 22)) + a) | 0;
  c = (c + (a ^ (d | ~b)) + w10 + 0xffeff47d) | 0;
  c = (((c << 15) | (c >>> 17)) + d) | 0;
  b = (b + (d ^ (c | ~a)) + w1 + 0x85845dd1) | 0;
  b = (((b << 21) | (b >>> 11)) + c) | 0;
  a = (a + (c ^ (b | ~d)) + w8 + 0x6fa87e4f) | 0;
  a = (((a << 6) | (a >>> 26)) + b) | 0;
  d = (d + (b ^ (a | ~c)) + w15 + 0xfe2ce6e0) | 0;
  d = (((d << 10) | (d >>> 22)) + a) | 0;
  c = (c + (a ^ (d | ~b)) + w6 + 0xa3014314) | 0;
  c = (((c << 15) | (c >>> 17)) + d) | 0;
  b = (b + (d ^ (c | ~a)) + w13 + 0x4e0811a1) | 0;
  b = (((b << 21) | (b >>> 11)) + c) | 0;
  a = (a + (c ^ (b | ~d)) + w4 + 0xf7537e82) | 0;
  a = (((a << 6) | (a >>> 26)) + b) | 0;
  d = (d + (b ^ (a | ~c)) + w11 + 0xbd3af235) | 0;
  d = (((d << 10) | (d >>> 22)) + a) | 0;
  c = (c + (a ^ (d | ~b)) + w2 + 0x2ad7d2bb) | 0;
  c = (((c << 15) | (c >>> 17)) + d) | 0;
  b = (b + (d ^ (c | ~a)) + w9 + 0xeb86d391) | 0;
  b = (((b << 21) | (b >>> 11)) + c) | 0;
  s.a = (s.a + a) | 0;
  s.b = (s.b + b) | 0;
  s.c = (s.c + c) | 0;
  s.d = (s.d + d) | 0;
}

function loadScratch(bytes: Uint8Array, start: number): void {
  if (littleEndian) {
    scratchBytes.set(bytes.subarray(start, start + 64));
    return;
  }
  for (let i = 0; i < 16; i++) {
    const p = start + 4 * i;
    scratch[i] = bytes[p]! | (bytes[p + 1]! << 8) | (bytes[p + 2]! << 16) | (bytes[p + 3]! << 24);
  }
}

/**
 * The digest Microsoft's compilers store at bytes 4..20 of a container, computed over `data`
 * (the container from byte 20 to its end). Returns 16 bytes.
 */
export function containerDigestOf(data: Uint8Array): Uint8Array {
  const s: State = { a: 0x67452301, b: 0xefcdab89 | 0, c: 0x98badcfe | 0, d: 0x10325476 };
  const n = data.byteLength;
  const full = n - (n % 64);
  const aligned = littleEndian && data.byteOffset % 4 === 0;
  if (aligned && full > 0) {
    const words = new Uint32Array(data.buffer, data.byteOffset, full / 4);
    for (let at = 0; at < full / 4; at += 16) block(s, words, at);
  } else {
    for (let p = 0; p < full; p += 64) {
      loadScratch(data, p);
      block(s, scratch, 0);
    }
  }
  const bits = (n * 8) >>> 0;
  const tail = ((bits >>> 2) | 1) >>> 0;
  const rest = data.subarray(full);
  const last = new Uint8Array(64);
  const lastWords = new Uint32Array(16);
  const put = (): void => {
    for (let i = 0; i < 16; i++) {
      const p = 4 * i;
      lastWords[i] = last[p]! | (last[p + 1]! << 8) | (last[p + 2]! << 16) | (last[p + 3]! << 24);
    }
    block(s, lastWords, 0);
  };
  if (rest.byteLength >= 56) {
    last.set(rest);
    last[rest.byteLength] = 0x80;
    put();
    last.fill(0);
    writeU32(last, 0, bits);
    writeU32(last, 60, tail);
    put();
  } else {
    writeU32(last, 0, bits);
    last.set(rest, 4);
    last[4 + rest.byteLength] = 0x80;
    writeU32(last, 60, tail);
    put();
  }
  const out = new Uint8Array(16);
  writeU32(out, 0, s.a);
  writeU32(out, 4, s.b);
  writeU32(out, 8, s.c);
  writeU32(out, 12, s.d);
  return out;
}

function writeU32(b: Uint8Array, at: number, v: number): void {
  b[at] = v & 0xff;
  b[at + 1] = (v >>> 8) & 0xff;
  b[at + 2] = (v >>> 16) & 0xff;
  b[at + 3] = (v >>> 24) & 0xff;
}

/** The digest a whole container should carry (computed over its bytes from 20 on). */
export function containerDigest(container: Uint8Array): Uint8Array {
  return containerDigestOf(container.subarray(20));
}

/**
 * Plain RFC 1321 MD5 over the same block function, used by tests to check the rounds against
 * node:crypto; the container digest differs only in its final padding.
 */
export function md5(data: Uint8Array): Uint8Array {
  const s: State = { a: 0x67452301, b: 0xefcdab89 | 0, c: 0x98badcfe | 0, d: 0x10325476 };
  const n = data.byteLength;
  const full = n - (n % 64);
  for (let p = 0; p < full; p += 64) {
    loadScratch(data, p);
    block(s, scratch, 0);
  }
  const restLen = n - full;
  const tailLen = restLen >= 56 ? 128 : 64;
  const tailBytes = new Uint8Array(tailLen);
  tailBytes.set(data.subarray(full));
  tailBytes[restLen] = 0x80;
  const bitsLo = (n * 8) >>> 0;
  const bitsHi = Math.floor(n / 0x20000000) >>> 0;
  writeU32(tailBytes, tailLen - 8, bitsLo);
  writeU32(tailBytes, tailLen - 4, bitsHi);
  for (let p = 0; p < tailLen; p += 64) {
    loadScratch(tailBytes, p);
    block(s, scratch, 0);
  }
  const out = new Uint8Array(16);
  writeU32(out, 0, s.a);
  writeU32(out, 4, s.b);
  writeU32(out, 8, s.c);
  writeU32(out, 12, s.d);
  return out;
}
