// The container digest (containers.md, "Container"; corpus/README.md, "The digest"): MD5's block
// function (RFC 1321 constants, rounds and initial state) over bytes 20..end, with the compiler's own
// final padding: the bit count first in the last block, then the remaining bytes, 0x80, zeros, and at
// byte 60 (bits >> 2) | 1; a remainder of 56..63 bytes is padded in a block of its own first.
// Speed (bench/container.bench.ts measures it beside node:crypto): the rounds are unrolled, one call
// runs every block with the state in locals, and the words are read straight from an Int32Array view
// of the input when it is 4-byte aligned, else from an aligned scratch copy made in large chunks;
// nothing is allocated per block. Each step adds the constant and the word before the round function
// (they do not wait on the previous step), and the G rounds use (~d & c) + (d & b), whose halves are
// disjoint, so that only one operation waits on b: together about 1.3x faster.

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
/** Aligned scratch for unaligned input, copied in chunks of this many bytes (a multiple of 64). */
const CHUNK = 1 << 16;
const scratchBytes = new Uint8Array(CHUNK);
const scratchWords = new Int32Array(scratchBytes.buffer);

/** Runs the block function over the 16-word blocks of `x` from word `at` to word `end`; `s` is the state. */
function blocks(s: Int32Array, x: Int32Array, at: number, end: number): void {
  let a = s[0]!;
  let b = s[1]!;
  let c = s[2]!;
  let d = s[3]!;
  for (; at < end; at += 16) {
    const a0 = a,
      b0 = b,
      c0 = c,
      d0 = d;
    const w0 = x[at]!,
      w1 = x[at + 1]!,
      w2 = x[at + 2]!,
      w3 = x[at + 3]!;
    const w4 = x[at + 4]!,
      w5 = x[at + 5]!,
      w6 = x[at + 6]!,
      w7 = x[at + 7]!;
    const w8 = x[at + 8]!,
      w9 = x[at + 9]!,
      w10 = x[at + 10]!,
      w11 = x[at + 11]!;
    const w12 = x[at + 12]!,
      w13 = x[at + 13]!,
      w14 = x[at + 14]!,
      w15 = x[at + 15]!;
    a = (a + 0xd76aa478 + w0 + (d ^ (b & (c ^ d)))) | 0;
    a = (((a << 7) | (a >>> 25)) + b) | 0;
    d = (d + 0xe8c7b756 + w1 + (c ^ (a & (b ^ c)))) | 0;
    d = (((d << 12) | (d >>> 20)) + a) | 0;
    c = (c + 0x242070db + w2 + (b ^ (d & (a ^ b)))) | 0;
    c = (((c << 17) | (c >>> 15)) + d) | 0;
    b = (b + 0xc1bdceee + w3 + (a ^ (c & (d ^ a)))) | 0;
    b = (((b << 22) | (b >>> 10)) + c) | 0;
    a = (a + 0xf57c0faf + w4 + (d ^ (b & (c ^ d)))) | 0;
    a = (((a << 7) | (a >>> 25)) + b) | 0;
    d = (d + 0x4787c62a + w5 + (c ^ (a & (b ^ c)))) | 0;
    d = (((d << 12) | (d >>> 20)) + a) | 0;
    c = (c + 0xa8304613 + w6 + (b ^ (d & (a ^ b)))) | 0;
    c = (((c << 17) | (c >>> 15)) + d) | 0;
    b = (b + 0xfd469501 + w7 + (a ^ (c & (d ^ a)))) | 0;
    b = (((b << 22) | (b >>> 10)) + c) | 0;
    a = (a + 0x698098d8 + w8 + (d ^ (b & (c ^ d)))) | 0;
    a = (((a << 7) | (a >>> 25)) + b) | 0;
    d = (d + 0x8b44f7af + w9 + (c ^ (a & (b ^ c)))) | 0;
    d = (((d << 12) | (d >>> 20)) + a) | 0;
    c = (c + 0xffff5bb1 + w10 + (b ^ (d & (a ^ b)))) | 0;
    c = (((c << 17) | (c >>> 15)) + d) | 0;
    b = (b + 0x895cd7be + w11 + (a ^ (c & (d ^ a)))) | 0;
    b = (((b << 22) | (b >>> 10)) + c) | 0;
    a = (a + 0x6b901122 + w12 + (d ^ (b & (c ^ d)))) | 0;
    a = (((a << 7) | (a >>> 25)) + b) | 0;
    d = (d + 0xfd987193 + w13 + (c ^ (a & (b ^ c)))) | 0;
    d = (((d << 12) | (d >>> 20)) + a) | 0;
    c = (c + 0xa679438e + w14 + (b ^ (d & (a ^ b)))) | 0;
    c = (((c << 17) | (c >>> 15)) + d) | 0;
    b = (b + 0x49b40821 + w15 + (a ^ (c & (d ^ a)))) | 0;
    b = (((b << 22) | (b >>> 10)) + c) | 0;
    a = (a + 0xf61e2562 + w1 + (~d & c) + (d & b)) | 0;
    a = (((a << 5) | (a >>> 27)) + b) | 0;
    d = (d + 0xc040b340 + w6 + (~c & b) + (c & a)) | 0;
    d = (((d << 9) | (d >>> 23)) + a) | 0;
    c = (c + 0x265e5a51 + w11 + (~b & a) + (b & d)) | 0;
    c = (((c << 14) | (c >>> 18)) + d) | 0;
    b = (b + 0xe9b6c7aa + w0 + (~a & d) + (a & c)) | 0;
    b = (((b << 20) | (b >>> 12)) + c) | 0;
    a = (a + 0xd62f105d + w5 + (~d & c) + (d & b)) | 0;
    a = (((a << 5) | (a >>> 27)) + b) | 0;
    d = (d + 0x02441453 + w10 + (~c & b) + (c & a)) | 0;
    d = (((d << 9) | (d >>> 23)) + a) | 0;
    c = (c + 0xd8a1e681 + w15 + (~b & a) + (b & d)) | 0;
    c = (((c << 14) | (c >>> 18)) + d) | 0;
    b = (b + 0xe7d3fbc8 + w4 + (~a & d) + (a & c)) | 0;
    b = (((b << 20) | (b >>> 12)) + c) | 0;
    a = (a + 0x21e1cde6 + w9 + (~d & c) + (d & b)) | 0;
    a = (((a << 5) | (a >>> 27)) + b) | 0;
    d = (d + 0xc33707d6 + w14 + (~c & b) + (c & a)) | 0;
    d = (((d << 9) | (d >>> 23)) + a) | 0;
    c = (c + 0xf4d50d87 + w3 + (~b & a) + (b & d)) | 0;
    c = (((c << 14) | (c >>> 18)) + d) | 0;
    b = (b + 0x455a14ed + w8 + (~a & d) + (a & c)) | 0;
    b = (((b << 20) | (b >>> 12)) + c) | 0;
    a = (a + 0xa9e3e905 + w13 + (~d & c) + (d & b)) | 0;
    a = (((a << 5) | (a >>> 27)) + b) | 0;
    d = (d + 0xfcefa3f8 + w2 + (~c & b) + (c & a)) | 0;
    d = (((d << 9) | (d >>> 23)) + a) | 0;
    c = (c + 0x676f02d9 + w7 + (~b & a) + (b & d)) | 0;
    c = (((c << 14) | (c >>> 18)) + d) | 0;
    b = (b + 0x8d2a4c8a + w12 + (~a & d) + (a & c)) | 0;
    b = (((b << 20) | (b >>> 12)) + c) | 0;
    a = (a + 0xfffa3942 + w5 + (b ^ c ^ d)) | 0;
    a = (((a << 4) | (a >>> 28)) + b) | 0;
    d = (d + 0x8771f681 + w8 + (a ^ b ^ c)) | 0;
    d = (((d << 11) | (d >>> 21)) + a) | 0;
    c = (c + 0x6d9d6122 + w11 + (d ^ a ^ b)) | 0;
    c = (((c << 16) | (c >>> 16)) + d) | 0;
    b = (b + 0xfde5380c + w14 + (c ^ d ^ a)) | 0;
    b = (((b << 23) | (b >>> 9)) + c) | 0;
    a = (a + 0xa4beea44 + w1 + (b ^ c ^ d)) | 0;
    a = (((a << 4) | (a >>> 28)) + b) | 0;
    d = (d + 0x4bdecfa9 + w4 + (a ^ b ^ c)) | 0;
    d = (((d << 11) | (d >>> 21)) + a) | 0;
    c = (c + 0xf6bb4b60 + w7 + (d ^ a ^ b)) | 0;
    c = (((c << 16) | (c >>> 16)) + d) | 0;
    b = (b + 0xbebfbc70 + w10 + (c ^ d ^ a)) | 0;
    b = (((b << 23) | (b >>> 9)) + c) | 0;
    a = (a + 0x289b7ec6 + w13 + (b ^ c ^ d)) | 0;
    a = (((a << 4) | (a >>> 28)) + b) | 0;
    d = (d + 0xeaa127fa + w0 + (a ^ b ^ c)) | 0;
    d = (((d << 11) | (d >>> 21)) + a) | 0;
    c = (c + 0xd4ef3085 + w3 + (d ^ a ^ b)) | 0;
    c = (((c << 16) | (c >>> 16)) + d) | 0;
    b = (b + 0x04881d05 + w6 + (c ^ d ^ a)) | 0;
    b = (((b << 23) | (b >>> 9)) + c) | 0;
    a = (a + 0xd9d4d039 + w9 + (b ^ c ^ d)) | 0;
    a = (((a << 4) | (a >>> 28)) + b) | 0;
    d = (d + 0xe6db99e5 + w12 + (a ^ b ^ c)) | 0;
    d = (((d << 11) | (d >>> 21)) + a) | 0;
    c = (c + 0x1fa27cf8 + w15 + (d ^ a ^ b)) | 0;
    c = (((c << 16) | (c >>> 16)) + d) | 0;
    b = (b + 0xc4ac5665 + w2 + (c ^ d ^ a)) | 0;
    b = (((b << 23) | (b >>> 9)) + c) | 0;
    a = (a + 0xf4292244 + w0 + (c ^ (b | ~d))) | 0;
    a = (((a << 6) | (a >>> 26)) + b) | 0;
    d = (d + 0x432aff97 + w7 + (b ^ (a | ~c))) | 0;
    d = (((d << 10) | (d >>> 22)) + a) | 0;
    c = (c + 0xab9423a7 + w14 + (a ^ (d | ~b))) | 0;
    c = (((c << 15) | (c >>> 17)) + d) | 0;
    b = (b + 0xfc93a039 + w5 + (d ^ (c | ~a))) | 0;
    b = (((b << 21) | (b >>> 11)) + c) | 0;
    a = (a + 0x655b59c3 + w12 + (c ^ (b | ~d))) | 0;
    a = (((a << 6) | (a >>> 26)) + b) | 0;
    d = (d + 0x8f0ccc92 + w3 + (b ^ (a | ~c))) | 0;
    d = (((d << 10) | (d >>> 22)) + a) | 0;
    c = (c + 0xffeff47d + w10 + (a ^ (d | ~b))) | 0;
    c = (((c << 15) | (c >>> 17)) + d) | 0;
    b = (b + 0x85845dd1 + w1 + (d ^ (c | ~a))) | 0;
    b = (((b << 21) | (b >>> 11)) + c) | 0;
    a = (a + 0x6fa87e4f + w8 + (c ^ (b | ~d))) | 0;
    a = (((a << 6) | (a >>> 26)) + b) | 0;
    d = (d + 0xfe2ce6e0 + w15 + (b ^ (a | ~c))) | 0;
    d = (((d << 10) | (d >>> 22)) + a) | 0;
    c = (c + 0xa3014314 + w6 + (a ^ (d | ~b))) | 0;
    c = (((c << 15) | (c >>> 17)) + d) | 0;
    b = (b + 0x4e0811a1 + w13 + (d ^ (c | ~a))) | 0;
    b = (((b << 21) | (b >>> 11)) + c) | 0;
    a = (a + 0xf7537e82 + w4 + (c ^ (b | ~d))) | 0;
    a = (((a << 6) | (a >>> 26)) + b) | 0;
    d = (d + 0xbd3af235 + w11 + (b ^ (a | ~c))) | 0;
    d = (((d << 10) | (d >>> 22)) + a) | 0;
    c = (c + 0x2ad7d2bb + w2 + (a ^ (d | ~b))) | 0;
    c = (((c << 15) | (c >>> 17)) + d) | 0;
    b = (b + 0xeb86d391 + w9 + (d ^ (c | ~a))) | 0;
    b = (((b << 21) | (b >>> 11)) + c) | 0;
    a = (a + a0) | 0;
    b = (b + b0) | 0;
    c = (c + c0) | 0;
    d = (d + d0) | 0;
  }
  s[0] = a;
  s[1] = b;
  s[2] = c;
  s[3] = d;
}

/** Runs the block function over `n` bytes (a multiple of 64) of `data` from byte `start`. */
function run(s: Int32Array, data: Uint8Array, start: number, n: number): void {
  const at = data.byteOffset + start;
  if (littleEndian && at % 4 === 0) {
    blocks(s, new Int32Array(data.buffer, at, n / 4), 0, n / 4);
    return;
  }
  for (let p = 0; p < n; p += CHUNK) {
    const size = Math.min(CHUNK, n - p);
    if (littleEndian) {
      scratchBytes.set(data.subarray(start + p, start + p + size));
    } else {
      for (let i = 0; i < size / 4; i++) {
        const q = start + p + 4 * i;
        scratchWords[i] = data[q]! | (data[q + 1]! << 8) | (data[q + 2]! << 16) | (data[q + 3]! << 24);
      }
    }
    blocks(s, scratchWords, 0, size / 4);
  }
}

function initialState(): Int32Array {
  return new Int32Array([0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476]);
}

function stateBytes(s: Int32Array): Uint8Array {
  const out = new Uint8Array(16);
  for (let i = 0; i < 4; i++) writeU32(out, 4 * i, s[i]!);
  return out;
}

/**
 * The digest Microsoft's compilers store at bytes 4..20 of a container, computed over `data`
 * (the container from byte 20 to its end). Returns 16 bytes.
 */
export function containerDigestOf(data: Uint8Array): Uint8Array {
  const s = initialState();
  const n = data.byteLength;
  const full = n - (n % 64);
  run(s, data, 0, full);
  const bits = (n * 8) >>> 0;
  const tail = ((bits >>> 2) | 1) >>> 0;
  const rest = data.subarray(full);
  const last = new Uint8Array(128);
  if (rest.byteLength >= 56) {
    last.set(rest);
    last[rest.byteLength] = 0x80;
    writeU32(last, 64, bits);
    writeU32(last, 124, tail);
    run(s, last, 0, 128);
  } else {
    writeU32(last, 0, bits);
    last.set(rest, 4);
    last[4 + rest.byteLength] = 0x80;
    writeU32(last, 60, tail);
    run(s, last, 0, 64);
  }
  return stateBytes(s);
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
  const s = initialState();
  const n = data.byteLength;
  const full = n - (n % 64);
  run(s, data, 0, full);
  const restLen = n - full;
  const tailLen = restLen >= 56 ? 128 : 64;
  const tailBytes = new Uint8Array(tailLen);
  tailBytes.set(data.subarray(full));
  tailBytes[restLen] = 0x80;
  const bitsLo = (n * 8) >>> 0;
  const bitsHi = Math.floor(n / 0x20000000) >>> 0;
  writeU32(tailBytes, tailLen - 8, bitsLo);
  writeU32(tailBytes, tailLen - 4, bitsHi);
  run(s, tailBytes, 0, tailLen);
  return stateBytes(s);
}
