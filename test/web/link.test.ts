// The inspector's links and highlighting, in Node (no browser): web/link.ts ties a listing line to
// its instruction through the listing with byte offsets (0x20), checked here on Microsoft's own
// listings (listing.asm and listing.0x20.asm of each committed build) against the instructions the
// core decodes; the WGSL lines of an instruction (the lifter's provenance, emitWgslWithMap) against
// what the listing's instruction does and against the order-of-writes fallback; a DXIL listing's
// instruction lines against the module's instructions; and web/highlight.ts must leave every
// listing's text as it is.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  parseContainer,
  decodeContainerProgram,
  liftContainer,
  emitWgsl,
  emitWgslWithMap,
  disassemble,
  disassembleDxil,
  readPartModule,
  readDxilSources,
} from '../../src/index.js';
import { instructionLocations, moduleInstructions, strippedIndices } from '../../src/dxil/debug-lines.js';
import type { Program } from '../../src/ir/program.js';
import {
  dxilInstructionLines,
  instructionsByOffset,
  lineOffsets,
  linesByOrigin,
  samePath,
  wgslLines,
} from '../../web/link.js';
import { CHUNK_LINES, CHUNKED_FROM, highlight, type Language } from '../../web/highlight.js';
import { FIXTURES, SHARED, skipUnlessShared, walk } from '../helpers/shared.js';
import { statementOrigins } from '../helpers/origins.js';

const OWN = join(FIXTURES, 'oracle/own');

/** The committed builds that have Microsoft's listing with byte offsets (flag 0x20). */
function buildsWithOffsets(): string[] {
  const out: string[] = [];
  for (const c of readdirSync(OWN).sort())
    for (const b of readdirSync(join(OWN, c)).sort()) {
      const dir = join(OWN, c, b);
      if (existsSync(join(dir, 'listing.0x20.asm')) && existsSync(join(dir, 'shader.dxbc'))) out.push(dir);
    }
  return out;
}

/** A highlighted listing's text: the tags dropped, the four escapes undone. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#13;/g, '\r')
    .replace(/&amp;/g, '&');
}

test("Microsoft's listing lines map to the decoded instructions, by the byte offsets of its 0x20 listing", () => {
  const builds = buildsWithOffsets();
  assert.ok(builds.length >= 20, `${builds.length} builds with listing.0x20.asm`);
  for (const dir of builds) {
    const c = parseContainer(new Uint8Array(readFileSync(join(dir, 'shader.dxbc'))));
    const program = decodeContainerProgram(c);
    if (!program) continue; // a library or an effect: no one program
    const listing = readFileSync(join(dir, 'listing.asm'), 'utf8');
    const offsets = lineOffsets(listing, readFileSync(join(dir, 'listing.0x20.asm'), 'utf8'));
    assert.ok(offsets, `${dir}: the two listings have the same lines`);
    const shown = offsets.filter((o): o is number => o !== undefined);
    // Offset 0 is the version token's line; every other is one instruction, each once, in order.
    assert.deepEqual(
      shown,
      [0, ...program.instructions.map((i) => i.word * 4)],
      `${dir}: the listing's instruction lines are the program's instructions`,
    );
    // And the page's own listing with 0x20 gives the same lines as Microsoft's.
    assert.deepEqual(lineOffsets(disassemble(c, 0), disassemble(c, 0x20)), offsets, dir);
  }
});

test('the WGSL lines of an instruction carry its write (vs_basic vs_4_1: dp4 o0.y, r0.xyzw, cb0[1].xyzw)', () => {
  const dir = join(OWN, 'vs_basic/main-vs_4_1');
  const c = parseContainer(new Uint8Array(readFileSync(join(dir, 'shader.dxbc'))));
  const listing = readFileSync(join(dir, 'listing.asm'), 'utf8').split('\n');
  const offsets = lineOffsets(listing.join('\n'), readFileSync(join(dir, 'listing.0x20.asm'), 'utf8'))!;
  const program = decodeContainerProgram(c)!;
  const byOffset = instructionsByOffset(program);
  const { text: wgsl, origins } = emitWgslWithMap(liftContainer(c));
  const wgslText = wgsl.split('\n');
  const map = linesByOrigin(origins, (k) => program.instructions[k]!.word * 4);
  const lineOf = (text: string): number => {
    const i = listing.indexOf(text);
    assert.ok(i >= 0, `the listing has ${text}`);
    return i;
  };
  // The four dp4 of the listing write o0.x .. o0.w with rows cb0[0] .. cb0[3]: one WGSL line each,
  // assigning that component from a dot product with that row.
  for (const [k, comp] of ['x', 'y', 'z', 'w'].entries()) {
    const at = offsets[lineOf(`dp4 o0.${comp}, r0.xyzw, cb0[${k}].xyzw`)]!;
    const link = byOffset.get(at)!;
    assert.deepEqual(link.written, [{ key: 'o0', mask: 1 << k }]);
    assert.deepEqual([...link.read].sort(), ['cb0', 'r0']);
    const lines = map.get(at)!.map((n) => wgslText[n]!.trim());
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, new RegExp(`^o\\[0\\]\\.${comp} = .*dot\\(.*cb0\\[${k}\\]`));
  }
  // mov r0.xyz, v0.xyzx writes three components: the let of v[0].xyz, then r0.x, r0.y and r0.z.
  const mov = map.get(offsets[lineOf('mov r0.xyz, v0.xyzx')]!)!.map((n) => wgslText[n]!.trim().slice(0, 4));
  assert.deepEqual(mov, ['let ', 'r0.x', 'r0.y', 'r0.z']);
  // ret makes the return (the outputs copied into the entry's result): that one line.
  assert.deepEqual(
    map.get(offsets[lineOf('ret ')]!)!.map((n) => wgslText[n]!.trim().slice(0, 18)),
    ['return vertex_out('],
  );
  // Declarations make no statement: no WGSL line.
  assert.equal(map.get(offsets[lineOf('dcl_temps 1')]!), undefined);
});

/** The 0-based lines inside a function's braces (`fn ...{` to its closing `}` at column 0). */
function bodyLines(wgsl: string): Set<number> {
  const out = new Set<number>();
  let inside = false;
  wgsl.split('\n').forEach((line, n) => {
    if (/^fn .*\{$/.test(line)) inside = true;
    else if (line === '}') inside = false;
    else if (inside) out.add(n);
  });
  return out;
}

test("the lifter's provenance links every instruction that makes a statement to its WGSL lines, in function bodies, agreeing with the order of writes", () => {
  let linked = 0;
  let agreed = 0;
  for (const dir of buildsWithOffsets()) {
    const c = parseContainer(new Uint8Array(readFileSync(join(dir, 'shader.dxbc'))));
    const program = decodeContainerProgram(c);
    if (!program) continue;
    let lifted: Program;
    try {
      lifted = liftContainer(c);
    } catch {
      continue; // refused by name: no WGSL
    }
    const { text, origins } = emitWgslWithMap(lifted);
    assert.equal(text, emitWgsl(lifted), `${dir}: the map leaves the text as it is`);
    assert.equal(origins.length, text.split('\n').length, dir);
    const made = statementOrigins(lifted);
    const byIndex = linesByOrigin(origins, (k) => k);
    const body = bodyLines(text);
    for (const k of made) {
      assert.ok(k < program.instructions.length, `${dir}: origin ${k} is an instruction`);
      const lines = byIndex.get(k) ?? [];
      assert.ok(lines.length > 0, `${dir}: instruction ${k} makes a statement and has a WGSL line`);
      for (const n of lines) assert.ok(body.has(n), `${dir}: instruction ${k}'s line ${n} is in a function body`);
      linked++;
    }
    for (const k of byIndex.keys()) assert.ok(made.has(k), `${dir}: line origin ${k} comes from a statement`);
    // Where the order of writes links an instruction, its lines are among the provenance's.
    const byOffset = instructionsByOffset(program);
    const at = (k: number): number => program.instructions[k]!.word * 4;
    const map = linesByOrigin(origins, at);
    for (const [offset, lines] of wgslLines([...byOffset.values()], text)) {
      const exact = map.get(offset) ?? [];
      for (const n of lines) assert.ok(exact.includes(n), `${dir}: the write at ${offset} on line ${n}`);
      agreed++;
    }
  }
  assert.ok(linked > 500, `${linked} instructions linked`);
  assert.ok(agreed > 300, `${agreed} instructions agree with the order of writes`);
});

test('a DXIL listing numbers its instruction lines as the lifter numbers origins; storeOutput links to its WGSL line', () => {
  const dir = join(FIXTURES, 'dxil');
  let checked = 0;
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.dxil')) continue;
    const c = parseContainer(new Uint8Array(readFileSync(join(dir, name))));
    if (!c.parts.some((p) => p.kind === 'DXIL') || c.parts.some((p) => p.kind === 'ILDB')) continue;
    const m = readPartModule(c, 'DXIL')!;
    const count = m.functions.reduce(
      (n, f) => n + (f.isProto ? 0 : f.blocks.reduce((k, b) => k + b.insts.length, 0)),
      0,
    );
    const listing = disassembleDxil(c).split('\n');
    const lines = dxilInstructionLines(listing.join('\n'));
    const shown = lines.filter((k) => k !== undefined);
    assert.deepEqual(
      shown,
      Array.from({ length: count }, (_, k) => k),
      `${name}: every instruction line once, in order`,
    );
    let lifted: Program;
    try {
      lifted = liftContainer(c);
    } catch {
      continue;
    }
    let wgsl: ReturnType<typeof emitWgslWithMap>;
    try {
      wgsl = emitWgslWithMap(lifted);
    } catch {
      continue;
    }
    const made = statementOrigins(lifted);
    const byIndex = linesByOrigin(wgsl.origins, (k) => k);
    const body = bodyLines(wgsl.text);
    for (const k of made) {
      assert.ok(k < count, `${name}: origin ${k} is an instruction`);
      assert.ok((byIndex.get(k) ?? []).length > 0, `${name}: instruction ${k} has a WGSL line`);
      for (const n of byIndex.get(k)!) assert.ok(body.has(n), `${name}: line ${n} in a function body`);
    }
    // Each storeOutput call (an entry point's output write) links to lines that write an output.
    const wgslText = wgsl.text.split('\n');
    listing.forEach((text, n) => {
      const k = lines[n];
      if (k === undefined || !text.includes('@dx.op.storeOutput')) return;
      const out = (byIndex.get(k) ?? []).map((l) => wgslText[l]!.trim());
      assert.ok(out.length > 0, `${name}: ${text.trim()} has a WGSL line`);
      assert.ok(
        out.some((l) => /^[A-Za-z_0-9.[\]]+ = /.test(l)),
        `${name}: ${text.trim()} -> ${out.join(' | ')}`,
      );
      checked++;
    });
  }
  assert.ok(checked > 0, 'some storeOutput was checked');
});

test("a /Zi DXIL build's debug module (ILDB): listing lines, source locations, and the DXIL part's instructions", () => {
  const dir = join(FIXTURES, 'dxil-source');
  let checked = 0;
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.dxil')) continue;
    const c = parseContainer(new Uint8Array(readFileSync(join(dir, name))));
    const ildb = readPartModule(c, 'ILDB');
    const dxil = readPartModule(c, 'DXIL');
    if (!ildb || !dxil) continue;
    // The listing prints the debug module: its instruction lines are that module's instructions.
    const listing = disassembleDxil(c).split('\n');
    const keys = dxilInstructionLines(listing.join('\n'));
    const count = moduleInstructions(ildb).length;
    assert.deepEqual(
      keys.filter((k) => k !== undefined),
      Array.from({ length: count }, (_, k) => k),
      name,
    );
    // Each location is the `line:L col:C` dxc's annotation prints after the instruction (the
    // llvm.dbg.* calls print their variable instead), and names the file the source holds.
    const locations = instructionLocations(ildb);
    const source = readDxilSources(c)!;
    assert.equal(source.files.length, 1);
    let located = 0;
    keys.forEach((k, line) => {
      if (k === undefined) return;
      const at = locations[k];
      const printed = / ; line:(\d+) col:(\d+)/.exec(listing[line]!);
      if (printed)
        assert.deepEqual(at && [at.line, at.col], [Number(printed[1]), Number(printed[2])], `${name} line ${line}`);
      if (!at) return;
      assert.ok(samePath(at.file, source.files[0]!.path), `${at.file} is ${source.files[0]!.path}`);
      located++;
    });
    assert.ok(located > 0, name);
    // Less its llvm.dbg.* calls, the debug module is the DXIL part, one instruction for one.
    const stripped = strippedIndices(ildb, dxil)!;
    assert.ok(stripped, `${name}: the DXIL part is the debug module stripped`);
    assert.deepEqual(
      stripped.filter((j) => j !== undefined),
      Array.from({ length: moduleInstructions(dxil).length }, (_, j) => j),
    );
    checked++;
  }
  assert.equal(checked, 2);
  // A module that is not the stripped one does not map.
  const a = parseContainer(new Uint8Array(readFileSync(join(dir, 'Helios__PixelShader.dxil'))));
  const b = parseContainer(new Uint8Array(readFileSync(join(dir, 'learn-sdl-gpu__shader.vert_512ae7a1.dxil'))));
  assert.equal(strippedIndices(readPartModule(a, 'ILDB')!, readPartModule(b, 'DXIL')!), undefined);
});

test(
  "every ILDB of ../shared's DXIL corpus is its DXIL part and llvm.dbg.* calls, and has source locations",
  { skip: skipUnlessShared('corpus/dxil') },
  () => {
    let checked = 0;
    for (const file of walk(join(SHARED, 'corpus/dxil'))) {
      let c;
      try {
        c = parseContainer(new Uint8Array(readFileSync(file)));
      } catch {
        continue; // not a container
      }
      const ildb = c.parts.some((p) => p.kind === 'ILDB') ? readPartModule(c, 'ILDB') : undefined;
      const dxil = c.parts.some((p) => p.kind === 'DXIL') ? readPartModule(c, 'DXIL') : undefined;
      if (!ildb || !dxil) continue;
      assert.ok(strippedIndices(ildb, dxil), `${file}: the DXIL part is the debug module stripped`);
      assert.ok(
        instructionLocations(ildb).some((x) => x !== undefined),
        `${file}: source locations`,
      );
      checked++;
    }
    assert.ok(checked >= 30, `${checked} containers with ILDB and DXIL`);
  },
);

test('the source lines of a DXIL build: the sample call is the line that samples (Helios)', () => {
  const c = parseContainer(new Uint8Array(readFileSync(join(FIXTURES, 'dxil-source/Helios__PixelShader.dxil'))));
  const ildb = readPartModule(c, 'ILDB')!;
  const k = moduleInstructions(ildb).findIndex(
    (i) => i.op === 'call' && (i.callee as { name?: string } | undefined)?.name === 'dx.op.sample.f32',
  );
  const at = instructionLocations(ildb)[k]!;
  const text = readFileSync(join(FIXTURES, 'dxil-source/Helios__PixelShader.hlsl'), 'utf8').split('\n');
  assert.match(text[at.line - 1]!, /testTexture\.Sample\(textureSampler, input\.texCoord\)/);
  assert.equal(at.file, 'Shaders\\PixelShader.hlsl');
});

test('samePath: slashes either way, either case, a tail at a folder boundary', () => {
  assert.ok(samePath('src/hlsl/vert.hlsl', 'src\\hlsl\\vert.hlsl'));
  assert.ok(samePath('C:\\work\\Shaders\\A.hlsl', 'shaders/a.hlsl'));
  assert.ok(!samePath('xa.hlsl', 'a.hlsl'));
  assert.ok(!samePath('b/a.hlsl', 'c/a.hlsl'));
});

test('highlighting keeps every listing byte for byte (asm, WGSL, JSON, HLSL)', () => {
  const samples: [string, Language][] = [];
  for (const dir of buildsWithOffsets().slice(0, 12)) {
    samples.push([readFileSync(join(dir, 'listing.asm'), 'utf8'), 'asm']);
    samples.push([readFileSync(join(dir, 'listing.0x20.asm'), 'utf8'), 'asm']);
    samples.push([readFileSync(join(dir, 'reflect.json'), 'utf8'), 'json']);
    try {
      samples.push([
        emitWgsl(liftContainer(parseContainer(new Uint8Array(readFileSync(join(dir, 'shader.dxbc')))))),
        'wgsl',
      ]);
    } catch {
      // a program the lifter refuses has no WGSL to highlight
    }
  }
  samples.push([readFileSync(join(OWN, 'vs_basic/source.hlsl'), 'utf8'), 'hlsl']);
  samples.push(['a < b && "c" > d\n\nno final newline', 'plain']);
  // A CRLF source (dxc keeps the Windows line ends of the file it compiled): the CR stays a character.
  samples.push(['struct S\r\n{\r\n  float4 p; // "\r" alone\r\n};\r\n', 'hlsl']);
  for (const [text, language] of samples) {
    const html = highlight(text, language);
    assert.equal(textOf(html), text, `${language}: ${text.slice(0, 60)}`);
  }
  // Registers carry their listing name, so panes can light them up together: WGSL's o[0] is o0.
  assert.match(
    highlight('dp4 o0.x, r0.xyzw, cb0[0].xyzw', 'asm'),
    /data-r="o0">o0<.*data-r="r0">r0<.*data-r="cb0">cb0</,
  );
  assert.match(
    highlight('  o[0].x = dot(r0, cb0[0]);', 'wgsl'),
    /data-r="o0">o\[0\]<.*data-r="r0">r0<.*data-r="cb0">cb0</,
  );
  // A long listing comes in chunks of CHUNK_LINES lines, its text unchanged.
  const long = Array.from({ length: CHUNKED_FROM + 1 }, (_, i) => `mov r${i}.x, l(${i})`).join('\n');
  const html = highlight(long, 'asm');
  assert.equal((html.match(/class="chunk"/g) ?? []).length, Math.ceil((CHUNKED_FROM + 1) / CHUNK_LINES));
  assert.equal(textOf(html), long);
  assert.equal((highlight('a\nb', 'asm').match(/class="chunk"/g) ?? []).length, 0);
  // One line span per line; the mnemonic is a keyword.
  assert.equal((highlight('a\nb\n', 'asm').match(/class="ln"/g) ?? []).length, 2);
  assert.match(
    highlight('dcl_globalFlags refactoringAllowed', 'asm'),
    /^<span class="ln" data-line="0"><span class="t-kw">dcl_globalFlags</,
  );
});
