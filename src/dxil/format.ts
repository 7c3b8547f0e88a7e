// Literal and name spelling of LLVM 3.7's AsmWriter: names quoted and escaped when they hold
// characters outside [-a-zA-Z0-9._], metadata names, strings with \XX escapes (upper-case hex),
// and floating-point constants as printf's %e when that reparses exactly, else as the double's bit
// pattern in hexadecimal (half as 0xH with four digits).

const HEX = '0123456789ABCDEF';

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** Where flat() puts the character it reads, so that the read is never dropped as dead code. */
let _flatSink = 0;

/**
 * The string, made flat. V8 keeps a concatenation as a tree of its pieces until its characters are
 * read; a text the printer caches and prints many times (a type's name, a constant, a dx.op
 * comment) would have its tree walked again at each use when the listing is joined. Reading one
 * character flattens it in place once, so the join copies it as one piece.
 */
export function flat(s: string): string {
  _flatSink = s.charCodeAt(0);
  return s;
}

export function escapeString(s: string): string {
  // Most strings (names, datalayouts, metadata strings) need no escape: returned as they are.
  let i = 0;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c >= 0x7f || c === 0x5c || c === 0x22) break;
  }
  if (i === s.length) return s;
  let out = s.slice(0, i);
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i) & 0xff;
    if (c >= 0x20 && c < 0x7f && c !== 0x5c && c !== 0x22) out += s[i];
    else out += '\\' + HEX[c >> 4] + HEX[c & 15];
  }
  return out;
}

export function escapeBytes(b: readonly number[]): string {
  let out = '';
  for (const c0 of b) {
    const c = c0 & 0xff;
    if (c >= 0x20 && c < 0x7f && c !== 0x5c && c !== 0x22) out += String.fromCharCode(c);
    else out += '\\' + HEX[c >> 4] + HEX[c & 15];
  }
  return out;
}

/** PrintLLVMName: prefix '%' or '@' and the name, quoted when needed. */
export function llvmName(prefix: string, name: string): string {
  let quote = name.length === 0 || (name.charCodeAt(0) >= 48 && name.charCodeAt(0) <= 57);
  if (!quote) {
    for (let i = 0; i < name.length; i++) {
      const c = name.charCodeAt(i);
      if (!isAlnum(c) && c !== 45 && c !== 46 && c !== 95) {
        quote = true;
        break;
      }
    }
  }
  return quote ? `${prefix}"${escapeString(name)}"` : prefix + name;
}

/** printMetadataIdentifier: [-a-zA-Z$._][-a-zA-Z$._0-9]* bare, else every other byte as \XX. */
export function metadataName(name: string): string {
  const ok = (c: number, first: boolean): boolean =>
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    c === 45 ||
    c === 36 ||
    c === 46 ||
    c === 95 ||
    (!first && c >= 48 && c <= 57);
  if (name.length === 0) return name;
  let i = 0;
  while (i < name.length && ok(name.charCodeAt(i), i === 0)) i++;
  if (i === name.length) return name;
  let out = name.slice(0, i);
  for (; i < name.length; i++) {
    const c = name.charCodeAt(i) & 0xff;
    if (ok(c, i === 0)) out += name[i];
    else out += '\\' + HEX[c >> 4] + HEX[c & 15];
  }
  return out;
}

const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** printf("%e") as the C library writes it: six digits, an exponent of at least two digits. */
export function printfE(v: number): string {
  if (Object.is(v, -0)) return '-0.000000e+00';
  const s = v.toExponential(6);
  const e = s.indexOf('e');
  const mant = s.slice(0, e);
  const sign = s[e + 1]!;
  const digits = s.slice(e + 2);
  return `${mant}e${sign}${digits.length < 2 ? '0' + digits : digits}`;
}

function hexDouble(bits: bigint): string {
  return '0x' + bits.toString(16).toUpperCase();
}

/** A float, double or half constant from its bit pattern, as LLVM 3.7 prints it. */
export function formatFP(kind: 'half' | 'float' | 'double', bits: bigint): string {
  if (kind === 'half') return '0xH' + (Number(bits) & 0xffff).toString(16).toUpperCase().padStart(4, '0');
  let v: number;
  if (kind === 'float') {
    u32[0] = Number(bits & 0xffffffffn);
    v = f32[0]!;
  } else {
    u64[0] = BigInt.asUintN(64, bits);
    v = f64[0]!;
  }
  if (Number.isFinite(v)) {
    const s = printfE(v);
    if (Number(s) === v) return s;
  }
  f64[0] = v;
  if (kind === 'float' && Number.isNaN(v)) {
    // Converting a float NaN to double keeps its payload, shifted into the double's mantissa.
    const b = Number(bits & 0xffffffffn);
    const sign = BigInt(b >>> 31);
    const mant = BigInt(b & 0x7fffff);
    return hexDouble((sign << 63n) | (0x7ffn << 52n) | (mant << 29n));
  }
  return hexDouble(u64[0]!);
}
