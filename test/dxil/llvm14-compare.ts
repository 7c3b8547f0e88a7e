// Compares iridia's LLVM 3.7 module text with llvm-dis-14's text of the same bitcode, allowing only
// the syntax differences between LLVM 3.7 and 14 listed in docs/dxil.md (each rule below names its
// entry there). Returns undefined when they agree, else the first difference.

/** LLVM 14 renames the overloaded lifetime intrinsics (rule "intrinsic names"). */
const INTRINSIC_RENAMES: readonly [RegExp, string][] = [[/@llvm\.lifetime\.(start|end)\.p0i8\b/g, '@llvm.lifetime.$1']];

/** LLVM 14 upgrades this string attribute when reading old bitcode (rule "attribute upgrade"). */
const ATTRIBUTE_UPGRADES: readonly [string, string][] = [['"no-frame-pointer-elim"="false"', '"frame-pointer"="none"']];

const FP = /(-?\d\.\d+e[+-]\d+|0x[0-9A-F]{16})\b/g;

function fpValue(tok: string): number {
  if (tok.startsWith('0x')) {
    const b = new BigUint64Array([BigInt(tok)]);
    return new Float64Array(b.buffer)[0]!;
  }
  return Number(tok);
}

interface Sections {
  /** Attribute groups referenced only by llvm.* declarations and calls. */
  readonly intrinsicOnly: Set<string>;
  readonly head: string[];
  readonly functions: Map<string, string[]>;
  readonly attributes: string[];
  readonly metadata: string[];
}

function split(text: string, llvm14: boolean): Sections {
  let lines = text.split('\n');
  if (llvm14) lines = lines.filter((l) => !l.startsWith('; ModuleID = ') && !l.startsWith('source_filename = '));
  const head: string[] = [];
  const functions = new Map<string, string[]>();
  const attributes: string[] = [];
  const metadata: string[] = [];
  let cur: string[] | undefined;
  let pendingComment: string | undefined;
  for (let l of lines) {
    for (const [re, to] of INTRINSIC_RENAMES) l = l.replace(re, to);
    if (l.startsWith('; Function Attrs:')) {
      // LLVM 14 sorts attributes by name, dxc by its own kind order (rule "attribute order").
      pendingComment = '; Function Attrs: ' + l.slice(18).split(' ').sort().join(' ');
      continue;
    }
    const fm = /^(define|declare) .*?@("[^"]*"|[-\w.$]+)\(/.exec(l);
    if (fm) {
      cur = [];
      // LLVM 14 gives intrinsic declarations its own attributes (rule "intrinsic attributes").
      const intrinsic = fm[1] === 'declare' && fm[2]!.startsWith('llvm.');
      if (intrinsic) l = l.replace(/ (nocapture|immarg|nofree|noundef|readonly|writeonly)\b/g, '');
      if (pendingComment && !intrinsic) cur.push(pendingComment);
      pendingComment = undefined;
      functions.set(fm[2]!, cur);
      cur.push(stripAttrRef(l));
      if (fm[1] === 'declare') cur = undefined;
      continue;
    }
    if (cur) {
      if (l === '}') {
        cur = undefined;
        continue;
      }
      if (l === '') continue;
      cur.push(normaliseInstruction(l));
      continue;
    }
    if (l.startsWith('attributes #')) {
      let body = l.replace(/^attributes #\d+ = /, '');
      for (const [a, b] of ATTRIBUTE_UPGRADES) body = body.replace(a, b);
      const inner = body.slice(2, -2).split(' ');
      attributes.push(inner.sort().join(' '));
      continue;
    }
    if (l.startsWith('!')) {
      metadata.push(l);
      continue;
    }
    if (l !== '') head.push(l);
  }
  // Which groups does anything but an intrinsic use?
  const groupBody = new Map<string, string>();
  const used = new Set<string>();
  const usedByIntrinsic = new Set<string>();
  for (const l of lines) {
    const am = /^attributes (#\d+) = \{ (.*) \}$/.exec(l);
    if (am) {
      let body = `{ ${am[2]} }`;
      for (const [x, y] of ATTRIBUTE_UPGRADES) body = body.replace(x, y);
      groupBody.set(am[1]!, body.slice(2, -2).split(' ').sort().join(' '));
      continue;
    }
    for (const ref of l.matchAll(/ (#\d+)\b/g)) {
      if (/@llvm\./.test(l)) usedByIntrinsic.add(ref[1]!);
      else used.add(ref[1]!);
    }
  }
  const intrinsicOnly = new Set<string>();
  for (const [ref, body] of groupBody) if (usedByIntrinsic.has(ref) && !used.has(ref)) intrinsicOnly.add(body);
  attributes.sort();
  return { intrinsicOnly, head, functions, attributes, metadata };
}

/** Attribute group numbers differ once LLVM 14 has renumbered (rule "attribute group numbering"). */
function stripAttrRef(l: string): string {
  return l.replace(/ #\d+( |$)/g, '$1').replace(/ +$/, '');
}

/** Block labels: `; <label>:N  ; preds` (3.7) and `N:  ; preds` (14) (rule "block labels"). */
function normaliseInstruction(l0: string): string {
  let l = stripAttrRef(l0);
  const lab = /^; <label>:(\d+) +(;.*)?$/.exec(l) ?? /^(\d+): +(;.*)?$/.exec(l);
  if (lab) l = `label ${lab[1]} ${lab[2] ?? ''}`.trim();
  return l;
}

function sameLine(ours: string, theirs: string): boolean {
  if (ours === theirs) return true;
  // LLVM 14 prints an alignment it computes when the bitcode has none (rule "default alignment").
  const t = theirs.replace(/, align \d+$/, '');
  if (ours === t && !/, align \d+$/.test(ours)) return true;
  // Floating-point literals: 3.7 prints %e when it reparses exactly, 14 prints its shortest form or
  // hexadecimal; compare the values (rule "float spelling").
  const oa = ours.split(FP);
  const ta = (ours === t ? theirs : t).split(FP);
  const tb = theirs.split(FP);
  for (const parts of [ta, tb]) {
    if (parts.length !== oa.length) continue;
    let ok = true;
    for (let i = 0; i < oa.length && ok; i++) {
      if (i % 2 === 0) ok = oa[i] === parts[i];
      else
        ok =
          fpValue(oa[i]!) === fpValue(parts[i]!) || (Number.isNaN(fpValue(oa[i]!)) && Number.isNaN(fpValue(parts[i]!)));
    }
    if (ok) return true;
  }
  return false;
}

function compareLines(what: string, ours: readonly string[], theirs: readonly string[]): string | undefined {
  const n = Math.max(ours.length, theirs.length);
  for (let i = 0; i < n; i++) {
    const a = ours[i];
    const b = theirs[i];
    if (a === undefined || b === undefined || !sameLine(a, b))
      return `${what}, line ${i + 1}:\n  llvm-dis-14: ${JSON.stringify(b)}\n  iridia:      ${JSON.stringify(a)}`;
  }
  return undefined;
}

/**
 * Debug modules (ILDB): LLVM 14 upgrades debug information (DI node fields, `!dbg` attachments on
 * functions and globals, DIExpression operands inlined into calls, llvm.dbg.value without its
 * offset), so only the code is compared: metadata lines, `!dbg` references and metadata numbers are
 * set aside (rule "debug information").
 */
function withoutDebugInfo(text: string): string {
  return text
    .split('\n')
    .filter((l) => !l.startsWith('!'))
    .map((l) =>
      l
        .replace(/,? !dbg !\d+/g, '')
        .replace(/metadata !DIExpression\([^)]*\)/g, 'metadata !N')
        .replace(/metadata !\d+/g, 'metadata !N')
        .replace(/(@llvm\.dbg\.value\(.*), i64 0, (metadata !N, metadata !N\))/, '$1, $2')
        .replace(
          /@llvm\.dbg\.value\(metadata, i64, metadata, metadata\)/,
          '@llvm.dbg.value(metadata, metadata, metadata)',
        ),
    )
    .join('\n');
}

export function compareWithLlvm14(
  ours0: string,
  theirs0: string,
  options: { debug?: boolean } = {},
): string | undefined {
  const ours = options.debug ? withoutDebugInfo(ours0) : ours0;
  const theirs = options.debug ? withoutDebugInfo(theirs0) : theirs0;
  const a = split(ours, false);
  const b = split(theirs, true);
  const head = compareLines('types and globals', a.head, b.head);
  if (head) return head;
  const names = new Set([...a.functions.keys(), ...b.functions.keys()]);
  for (const name of names) {
    const fa = a.functions.get(name);
    const fb = b.functions.get(name);
    if (!fa || !fb) return `function @${name} is ${fa ? 'missing from llvm-dis-14' : 'missing from iridia'}`;
    const d = compareLines(`function @${name}`, fa, fb);
    if (d) return d;
  }
  // LLVM 14 gives upgraded intrinsics groups of attributes 3.7 does not have, and drops groups only
  // they used (rule "intrinsic attributes"): compare the groups either side has in common use.
  const isNew = (g: string): boolean => /\b(nofree|nosync|willreturn)\b/.test(g);
  const theirGroups = b.attributes.filter((g) => !isNew(g));
  const ourGroups = a.attributes.filter((g) => theirGroups.includes(g) || !a.intrinsicOnly.has(g));
  return compareLines('attribute groups', ourGroups, theirGroups) ?? compareLines('metadata', a.metadata, b.metadata);
}
