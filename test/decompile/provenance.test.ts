// Provenance through the decompiler: the readable module's statements keep the lifter's origins
// (src/ir/ir.ts Origin; a statement that a pass folded others into carries theirs too), and the
// HLSL and readable WGSL printers give each line its origins (decompiledHlslWithMap,
// decompiledWgslWithMap). Checked over the committed builds of test/fixtures/oracle/own: every
// origin that survives the passes is on a line of the entry's body and nothing else is; a line that
// links a flow instruction (if, loop, switch, break, continue, discard...; not ret, whose outputs
// the return statement writes) is a control line; a line that assigns links an instruction that
// writes a register; and vs_basic's position line links its four dp4.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from '../helpers/shared.js';
import { statementOrigins } from '../helpers/origins.js';
import { parseContainer } from '../../src/container/container.js';
import { decodeContainerProgram } from '../../src/index.js';
import { OPCODES } from '../../src/sm4/opcodes.js';
import {
  decompile,
  decompiledHlsl,
  decompiledHlslWithMap,
  decompiledWgsl,
  decompiledWgslWithMap,
  type Decompiled,
} from '../../src/decompile/index.js';
import { IridiaError } from '../../src/errors.js';
import { validateModule } from '../../src/ir/validate.js';

const OWN = join(FIXTURES, 'oracle/own');

function builds(): string[] {
  const out: string[] = [];
  for (const c of readdirSync(OWN).sort())
    for (const b of readdirSync(join(OWN, c)).sort()) {
      const f = join(OWN, c, b, 'shader.dxbc');
      if (existsSync(f)) out.push(f);
    }
  return out;
}

/** Opcodes of flow instructions (the lifter's flow.ts), ret and retc aside. */
const FLOW = new Set([0x1f, 0x12, 0x15, 0x30, 0x16, 0x02, 0x03, 0x07, 0x08, 0x0d, 0x4c, 0x06, 0x0a, 0x17]);
const CONTROL =
  /^(if \(|else$|else if \(|\[loop\] for|\[loop\] while|switch \(|case |default:|break;|continue;|discard;|return|\{$|\}$)/;

test('the decompiled HLSL and WGSL link every origin that survives the passes, and only to lines that compute it', () => {
  let programs = 0;
  let linked = 0;
  for (const file of builds()) {
    const bytes = new Uint8Array(readFileSync(file));
    let d: Decompiled;
    let hlsl: ReturnType<typeof decompiledHlslWithMap>;
    try {
      d = decompile(bytes);
      hlsl = decompiledHlslWithMap(d);
    } catch (e) {
      if (e instanceof IridiaError) continue; // refused by name (lift or decompile)
      throw e;
    }
    const program = decodeContainerProgram(parseContainer(bytes))!;
    assert.deepEqual(validateModule(d.readable.module), [], file);
    assert.equal(hlsl.text, decompiledHlsl(d), `${file}: the map leaves the HLSL as it is`);
    const lines = hlsl.text.split('\n');
    assert.equal(hlsl.origins.length, lines.length, file);
    const kept = statementOrigins(d.readable);
    // every origin a readable statement holds came from the lifted program
    const lifted = statementOrigins(d.lifted);
    for (const k of kept) assert.ok(lifted.has(k), `${file}: origin ${k} is one the lifter gave`);
    const bodyFrom = lines.findIndex((l) => /^\S.* main\(/.test(l)) + 1;
    const bodyTo = lines.lastIndexOf('}');
    const seen = new Set<number>();
    hlsl.origins.forEach((list, n) => {
      if (list.length === 0) return;
      // a stage program's phases are functions of their own (a hull program's fork_0, patch_constants)
      if (d.lifted.stageFunctions)
        assert.ok(/^\s/.test(lines[n]!) && n < bodyTo, `${file}: line ${n} (${lines[n]}) is in a function's body`);
      else assert.ok(n > bodyFrom && n < bodyTo, `${file}: line ${n} (${lines[n]}) is in main's body`);
      const text = lines[n]!.trim();
      for (const k of list) {
        seen.add(k);
        assert.ok(kept.has(k), `${file}: line ${n} links ${k}, which no statement holds`);
        const op = program.instructions[k]!.opcode;
        if (FLOW.has(op)) assert.match(text, CONTROL, `${file}: flow instruction ${k} on line ${n}: ${text}`);
      }
      if (/^[A-Za-z_][\w.[\]]* [-+*/|&^]?= /.test(text) || /^\w+ \w+ = /.test(text))
        assert.ok(
          list.some((k) => (OPCODES[program.instructions[k]!.opcode]?.dst.length ?? 0) > 0),
          `${file}: the assignment ${text} links an instruction that writes a register (${list.join(',')})`,
        );
    });
    assert.deepEqual(
      [...kept].filter((k) => !seen.has(k)),
      [],
      `${file}: every origin that survives is on an HLSL line`,
    );
    // The readable WGSL: the same origins, each on a line.
    const wgsl = decompiledWgslWithMap(d);
    assert.equal(wgsl.text, decompiledWgsl(d), file);
    const inWgsl = new Set(wgsl.origins.flat());
    assert.deepEqual(
      [...kept].filter((k) => !inWgsl.has(k)),
      [],
      `${file}: every origin on a WGSL line`,
    );
    for (const k of inWgsl) assert.ok(kept.has(k), file);
    programs++;
    linked += kept.size;
  }
  assert.ok(programs >= 15, `${programs} programs decompile`);
  assert.ok(linked > 300, `${linked} instructions linked`);
});

test('vs_basic: the position line links the four dp4 and the movs building r0', () => {
  const dir = join(OWN, 'vs_basic/main-vs_4_1');
  const d = decompile(new Uint8Array(readFileSync(join(dir, 'shader.dxbc'))));
  const { text, origins: map } = decompiledHlslWithMap(d);
  const lines = text.split('\n');
  const listing = readFileSync(join(dir, 'listing.asm'), 'utf8');
  const program = decodeContainerProgram(parseContainer(new Uint8Array(readFileSync(join(dir, 'shader.dxbc')))))!;
  const named = (k: number): string => {
    const op = program.instructions[k]!.opcode;
    return OPCODES[op]?.name ?? String(op);
  };
  const position = lines.findIndex((l) => l.includes('output.position = mul('));
  assert.ok(position > 0, text);
  const linked = map[position]!.map(named);
  assert.equal(linked.filter((n) => n === 'dp4').length, 4, linked.join(' '));
  assert.ok(linked.includes('mov'), linked.join(' '));
  assert.match(listing, /dp4 o0\.w, r0\.xyzw, cb0\[3\]\.xyzw/);
});
