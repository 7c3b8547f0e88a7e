// Jobs and results as JSON text, so they can cross a process (or worker) boundary: typed arrays are
// written as {"$ta": kind, "b64": base64 of their bytes} and read back as the same kind.

const KINDS = {
  Uint32Array,
  Int32Array,
  Float32Array,
  Uint8Array,
} as const;
type Kind = keyof typeof KINDS;

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    s += String.fromCharCode(...bytes.subarray(i, Math.min(bytes.length, i + 0x8000)));
  return btoa(s);
}

function fromBase64(b64: string): Uint8Array {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

export function encodeWire(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    for (const kind of Object.keys(KINDS) as Kind[]) {
      if (v instanceof KINDS[kind]) {
        const a = v as Uint8Array;
        return { $ta: kind, b64: toBase64(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)) };
      }
    }
    return v;
  });
}

export function decodeWire<T>(text: string): T {
  return JSON.parse(text, (_k, v: unknown) => {
    if (v !== null && typeof v === 'object' && '$ta' in v && 'b64' in v) {
      const kind = (v as { $ta: string }).$ta;
      const ctor = KINDS[kind as Kind];
      if (ctor === undefined) throw new Error(`wire: unknown typed array kind ${kind}`);
      const bytes = fromBase64((v as { b64: string }).b64);
      return new ctor(bytes.buffer as ArrayBuffer, 0, bytes.byteLength / ctor.BYTES_PER_ELEMENT);
    }
    return v;
  }) as T;
}
