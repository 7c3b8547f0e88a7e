// What a lift leaves for V8's young-generation collections (issue 17, docs/benchmarks.md, the sixth
// session): once a program is lifted and emitted and its results dropped, nothing of it may stay
// reachable from the old generation. A closure kept in a field of a class instance that it
// captures (the DXIL lifter's constantPointer hook was one) made every DXIL lift survive the young
// collections until the next full one: about 66 KB promoted a program, where a lift that keeps
// nothing leaves under 10. Measured by the old generation's growth over a batch of lifts followed
// by two forced young collections; a batch during which a full collection ran (which frees what
// was promoted and hides it) is measured again.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseContainer } from '../../src/container/container.js';
import { liftContainer } from '../../src/lift/lift.js';
import { emitWgsl } from '../../src/wgsl/index.js';
import { exposedGc, youngGrowth } from '../helpers/young.js';

/** Old-generation growth in bytes a program over `n` lifts of `bytes`, with no full collection among them. */
function promotedPerProgram(bytes: Uint8Array, n: number): number {
  const once = (): void => void emitWgsl(liftContainer(parseContainer(bytes)));
  for (let k = 0; k < 60; k++) once();
  const gc = exposedGc();
  for (let attempt = 0; attempt < 5; attempt++) {
    gc();
    const grown = youngGrowth(() => {
      for (let k = 0; k < n; k++) once();
    });
    if (grown !== undefined) return grown / n;
  }
  throw new Error('every batch of lifts ran a full collection: nothing was measured');
}

const fixture = (path: string): Uint8Array => new Uint8Array(readFileSync(new URL(path, import.meta.url)));

const LIMIT = 24 * 1024;

test('a DXIL lift leaves nothing for the young collections to promote', () => {
  const bytes = fixture('../fixtures/dxil-lift/DXIL__TexturedQuad.frag.dxil');
  const kept = promotedPerProgram(bytes, 40);
  assert.ok(kept < LIMIT, `${(kept / 1024).toFixed(1)} KB a program promoted (limit ${LIMIT / 1024} KB)`);
});

test('an SM4/5 lift leaves nothing for the young collections to promote', () => {
  const bytes = fixture('../fixtures/exec/cs_basic-main-cs_5_0.dxbc');
  const kept = promotedPerProgram(bytes, 40);
  assert.ok(kept < LIMIT, `${(kept / 1024).toFixed(1)} KB a program promoted (limit ${LIMIT / 1024} KB)`);
});

// The rule behind the eleventh session's change: a map kept at module level lives in the old
// generation, and the young collector keeps alive whatever an old object points to, so a WeakMap or
// WeakSet there keyed by a program's objects (its types, bodies, builders) moved every program into
// the old generation. Module-level weak collections are therefore listed here by file and name, each
// with why it may stay; a new one fails until it is justified, and one listed but gone fails too.
const MODULE_WEAK_COLLECTIONS: Readonly<Record<string, string>> = {
  'exec/invocation.ts resolvedCache':
    "a function's resolved types, reused by every invocation of one program the executor runs; no target measures batches of executor runs",
  'exec/layout.ts cache': "a module's type layouts, reused the same way",
};

/** Each top-level declaration of src/ (file relative to src/, name, the rest of its line). */
function moduleDeclarations(): { where: string; name: string; rest: string }[] {
  const src = fileURLToPath(new URL('../../src/', import.meta.url));
  const found: { where: string; name: string; rest: string }[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith('.ts'))
        for (const m of readFileSync(path, 'utf8').matchAll(/^(?:export )?(?:const|let|var) (\w+)(.*)$/gm))
          found.push({ where: relative(src, path).split(sep).join('/'), name: m[1]!, rest: m[2]! });
    }
  };
  walk(src);
  return found;
}

test('no module-level WeakMap or WeakSet keyed by a program, but those listed with a reason', () => {
  const found = moduleDeclarations()
    .filter((d) => /^[^=]*= new Weak(?:Map|Set)\b/.test(d.rest))
    .map((d) => `${d.where} ${d.name}`);
  assert.deepEqual(found.sort(), Object.keys(MODULE_WEAK_COLLECTIONS).sort());
});

// The same rule for plain maps and sets that are filled as the library runs (made empty at module
// level): one holding a program's objects keeps them alive through young collections for as long as
// it holds them, and `clear()` does not end that: the table it leaves behind, in the old generation
// by then, keeps its entries as they were (docs/benchmarks.md, the twenty-first session: blockHolds's
// map of function bodies moved 430 KB to the old generation a young collection over the corpus's
// small programs). Keys and values of strings and numbers are safe; any other is listed with why.
const MODULE_FILLED_COLLECTIONS: Readonly<Record<string, string>> = {
  'exec/run.ts zeroCache': 'zeroed typed arrays by length, made once for the process; nothing of a program',
  'dxil/dxop-check.ts SHAPES': "each dx.op opcode's signature shape, from the op table; nothing of a program",
  'asm/text.ts RUNS': 'regular expressions made from fixed texts; nothing of a program',
  'asm/instruction.ts BY_NAME': 'the opcode table by mnemonic, filled when the module loads',
  'lift/dxil/ops.ts CHECKED_BY_NAME':
    "dx.op shapes checked, by callee name: opcodes, type numbers and the answer's text, never a module's objects; emptied at 4,096",
};

const PRIMITIVE = /^(?:string|number|bigint|boolean|ExprId)$/;

test('no module-level Map or Set filled at run time holds objects, but those listed with a reason', () => {
  const found: string[] = [];
  for (const d of moduleDeclarations()) {
    const m =
      /^\s*=\s*new (Map|Set)<(.+)>\(\);/.exec(d.rest) ??
      /^\s*:\s*(?:Readonly)?(Map|Set)<(.+)>\s*=\s*new (?:Map|Set)\(\);/.exec(d.rest);
    if (!m) {
      assert.doesNotMatch(
        d.rest,
        /= new (?:Map|Set)\(\);/,
        `${d.where} ${d.name}: a map or set with no types to check`,
      );
      continue;
    }
    // the type arguments split at their top-level commas
    const args: string[] = [];
    let depth = 0;
    let from = 0;
    const text = m[2]!;
    for (let i = 0; i <= text.length; i++) {
      const c = text[i];
      if (c === '<' || c === '(' || c === '[') depth++;
      else if (c === '>' || c === ')' || c === ']') depth--;
      else if ((c === ',' && depth === 0) || i === text.length) {
        args.push(text.slice(from, i).trim());
        from = i + 1;
      }
    }
    assert.equal(args.length, m[1] === 'Map' ? 2 : 1, `${d.where} ${d.name}: type arguments ${text}`);
    if (!args.every((a) => PRIMITIVE.test(a))) found.push(`${d.where} ${d.name}`);
  }
  assert.deepEqual(found.sort(), Object.keys(MODULE_FILLED_COLLECTIONS).sort());
});
