// A validator for the subset of JSON Schema docs/json.md writes its schemas in (written for these
// tests; no dependency): type (one or a list), const, enum, properties, required,
// additionalProperties (false or a schema), items, anyOf, and $ref to another named schema of the
// page. validate() returns every problem, each with the JSON path where it is.

export type Schema = { readonly [key: string]: unknown };

const typeOf = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'number' && Number.isInteger(v)
        ? 'integer'
        : typeof v;

const matchesType = (v: unknown, t: string): boolean => {
  const actual = typeOf(v);
  return actual === t || (t === 'number' && actual === 'integer');
};

const KNOWN = new Set([
  'type',
  'const',
  'enum',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  '$ref',
]);

export function validate(
  schema: Schema,
  value: unknown,
  named: Readonly<Record<string, Schema>>,
  path = '$',
): string[] {
  for (const k of Object.keys(schema))
    if (!KNOWN.has(k)) return [`${path}: the schema uses ${k}, which the validator does not know`];
  if (typeof schema['$ref'] === 'string') {
    const target = named[schema['$ref']];
    if (!target) return [`${path}: $ref ${schema['$ref']} names no schema`];
    return validate(target, value, named, path);
  }
  if (Array.isArray(schema['anyOf'])) {
    const branches = (schema['anyOf'] as Schema[]).map((s) => validate(s, value, named, path));
    if (branches.some((b) => b.length === 0)) return [];
    const best = branches.reduce((a, b) => (b.length < a.length ? b : a));
    return [`${path}: matches none of ${branches.length} branches; the nearest says: ${best.join('; ')}`];
  }
  const problems: string[] = [];
  if ('const' in schema && JSON.stringify(schema['const']) !== JSON.stringify(value))
    problems.push(`${path}: ${JSON.stringify(value)} is not ${JSON.stringify(schema['const'])}`);
  if (Array.isArray(schema['enum']) && !schema['enum'].some((e) => JSON.stringify(e) === JSON.stringify(value)))
    problems.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema['enum'])}`);
  if (schema['type'] !== undefined) {
    const types = Array.isArray(schema['type']) ? (schema['type'] as string[]) : [schema['type'] as string];
    if (!types.some((t) => matchesType(value, t))) {
      problems.push(`${path}: ${typeOf(value)} where ${types.join(' or ')} is expected`);
      return problems;
    }
  }
  if (typeOf(value) === 'object') {
    const o = value as Record<string, unknown>;
    const props = (schema['properties'] ?? {}) as Record<string, Schema>;
    for (const r of (schema['required'] ?? []) as string[]) if (!(r in o)) problems.push(`${path}: ${r} is missing`);
    for (const [k, v] of Object.entries(o)) {
      const p = props[k];
      if (p) problems.push(...validate(p, v, named, `${path}.${k}`));
      else if (schema['additionalProperties'] === false) problems.push(`${path}: ${k} is not in the schema`);
      else if (typeof schema['additionalProperties'] === 'object')
        problems.push(...validate(schema['additionalProperties'] as Schema, v, named, `${path}.${k}`));
    }
  }
  if (typeOf(value) === 'array' && schema['items'] !== undefined)
    (value as unknown[]).forEach((v, i) =>
      problems.push(...validate(schema['items'] as Schema, v, named, `${path}[${i}]`)),
    );
  return problems;
}
