// Deep comparison of parsed JSON that names the first differing path (key order included, since
// the D3D view promises the oracle's key order).

export function jsonDifference(actual: unknown, expected: unknown, path = '$'): string | undefined {
  if (expected === null || typeof expected !== 'object') {
    return Object.is(actual, expected) || actual === expected
      ? undefined
      : `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
  }
  if (actual === null || typeof actual !== 'object')
    return `${path}: expected an object, got ${JSON.stringify(actual)}`;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected an array`;
    if (actual.length !== expected.length) return `${path}: expected ${expected.length} items, got ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const d = jsonDifference(actual[i], expected[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  const ek = Object.keys(expected);
  const ak = Object.keys(actual);
  if (ek.join(',') !== ak.join(',')) return `${path}: keys ${JSON.stringify(ak)}, expected ${JSON.stringify(ek)}`;
  for (const k of ek) {
    const d = jsonDifference(
      (actual as Record<string, unknown>)[k],
      (expected as Record<string, unknown>)[k],
      `${path}.${k}`,
    );
    if (d) return d;
  }
  return undefined;
}
