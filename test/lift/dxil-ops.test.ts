// The DXIL lifter's Shader Model 6.1-6.8 operations of src/lift/dxil/ops-misc.ts and the descriptor
// heaps of src/lift/dxil/heap.ts.
//
// Operations: small compute programs made by editing a real dxc program (test/fixtures/dxil/
// DXIL__FillTexture, which stores a float4 to RWTexture2D u0 at the thread id): the calls under
// test are put before its store, whose four lanes become their results (bitcast to float), lifted
// and run on the executor; each word is worked out by hand below. Descriptor heaps: Helios'
// MeshViewer vertex and pixel programs (SM6.6, everything through ResourceDescriptorHeap and
// SamplerDescriptorHeap): the convention's groups, bindings and spaces, and the vertex program run
// on the executor with its buffers, constant buffers and matrices bound by heap index. Tint
// compiles the WGSL of all of them (when WebGPU is here).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FIXTURES, readBytes, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { compileWgsl, webgpuSkip } from '../helpers/webgpu.js';
import { parseContainer } from '../../src/container/container.js';
import { readPartModule } from '../../src/dxil/disassemble.js';
import { Constant, Func, Instruction, Type, type Module, type Value } from '../../src/dxil/ir.js';
import { liftModule } from '../../src/lift/dxil/lift.js';
import { lift } from '../../src/lift/lift.js';
import { RESOURCE_HEAP_SPACE, SAMPLER_HEAP_SPACE } from '../../src/lift/dxil/heap.js';
import { validateModule } from '../../src/ir/validate.js';
import { nearestClampSampler, runCompute, runPixel, runVertex } from '../../src/exec/index.js';
import { emitWgsl } from '../../src/wgsl/index.js';
import type { Program } from '../../src/ir/program.js';
import { IridiaError } from '../../src/errors.js';

const FILL = join(FIXTURES, 'dxil/DXIL__FillTexture.comp_232c51f1.dxil');
const HELIOS_VS = join(FIXTURES, 'dxil-lift/MeshViewer__MeshViewerVS.dxil');
const HELIOS_PS = join(FIXTURES, 'dxil-lift/MeshViewer__MeshViewerPS.dxil');

const wgsl: string[] = [];

// ---- a small builder over the fixture's module --------------------------------------------------

class Body {
  readonly i32: Type;
  readonly i16: Type;
  readonly i8: Type;
  readonly i1: Type;
  readonly f32: Type;
  readonly f16: Type;
  readonly voidT: Type;
  readonly out: Instruction[] = [];
  private readonly fns = new Map<string, Func>();
  constructor(
    readonly m: Module,
    readonly tidX: Value,
    readonly tidY: Value,
  ) {
    const find = (kind: Type['kind'], width = 0): Type =>
      m.types.find((t) => t.kind === kind && (width === 0 || t.width === width)) ?? mk(kind, width);
    const mk = (kind: Type['kind'], width: number): Type => {
      const t = new Type(kind);
      t.width = width;
      m.types.push(t);
      return t;
    };
    this.i32 = find('int', 32);
    this.i16 = find('int', 16);
    this.i8 = find('int', 8);
    this.i1 = find('int', 1);
    this.f32 = find('float');
    this.f16 = find('half');
    this.voidT = find('void');
  }
  int(n: number, t: Type = this.i32): Constant {
    const c = new Constant(t, 'int');
    c.bits = BigInt(n);
    return c;
  }
  half(bits: number): Constant {
    const c = new Constant(this.f16, 'float');
    c.bits = BigInt(bits);
    return c;
  }
  float(v: number): Constant {
    const c = new Constant(this.f32, 'float');
    c.bits = BigInt(new Uint32Array(new Float32Array([v]).buffer)[0]!);
    return c;
  }
  /** A struct of `n` lanes of `elt`, named as dxc names the dx.op result types (dxop-signatures.ts). */
  struct(elt: Type, n: number, name: string): Type {
    const t = new Type('struct');
    t.elts = Array.from({ length: n }, () => elt);
    t.name = name;
    return t;
  }
  call(name: string, ret: Type, args: Value[]): Instruction {
    let fn = this.fns.get(name);
    if (!fn) {
      const ft = new Type('fn');
      ft.elt = ret;
      ft.elts = args.map((a) => a.type);
      fn = new Func(new Type('ptr'), ft);
      fn.name = name;
      fn.isProto = true;
      this.fns.set(name, fn);
    }
    const i = new Instruction('call', ret);
    i.callee = fn;
    i.explicitType = fn.fnType;
    i.ops = args;
    this.out.push(i);
    return i;
  }
  part(agg: Value, k: number, t: Type): Instruction {
    const i = new Instruction('extractvalue', t);
    i.ops = [agg];
    i.indices = [k];
    this.out.push(i);
    return i;
  }
  add(a: Value, b: Value): Instruction {
    const i = new Instruction('binop', a.type);
    i.sub = 0;
    i.ops = [a, b];
    this.out.push(i);
    return i;
  }
  /** An integer lane widened (zext) or narrowed (trunc) to i32 first, then its bits as a float. */
  asFloat(v: Value): Value {
    let x = v;
    if (v.type.kind === 'int' && v.type.width !== 32) {
      const z = new Instruction('cast', this.i32);
      z.sub = 1; // zext
      z.ops = [v];
      this.out.push(z);
      x = z;
    }
    if (x.type.kind === 'float') return x;
    const c = new Instruction('cast', this.f32);
    c.sub = 11; // bitcast
    c.ops = [x];
    this.out.push(c);
    return c;
  }
}

/** FillTexture with its stored lanes replaced by `build`'s four values (as their bits). */
function program(build: (b: Body) => Value[]): Program {
  const c = parseContainer(readBytes(FILL));
  const m = readPartModule(c, 'DXIL')!;
  const main = m.functions.find((f) => f.name === 'main')!;
  const insts = main.blocks[0]!.insts;
  const store = insts.findIndex((i) => i.op === 'call' && i.callee?.name === 'dx.op.textureStore.f32');
  const st = insts[store]!;
  const b = new Body(m, st.ops[2]!, st.ops[3]!);
  const lanes = build(b).map((v) => b.asFloat(v));
  assert.equal(lanes.length, 4);
  st.ops = [...st.ops.slice(0, 5), ...lanes, st.ops[9]!];
  insts.splice(store, 0, ...b.out);
  const p = liftModule(m, 'DXIL', 0);
  assert.deepEqual(validateModule(p.module), []);
  wgsl.push(emitWgsl(p));
  return p;
}

/** The words each of `threads` threads (x = 0..threads-1, y = 0) stores. */
function run(p: Program, threads = 4): number[][] {
  const levels = [new Uint32Array(8 * 8 * 4)];
  runCompute(p, { workgroups: [1, 1, 1], textures: { '3:0': { width: 8, height: 8, depthOrLayers: 1, levels } } });
  return Array.from({ length: threads }, (_, t) => Array.from(levels[0]!.subarray(t * 4, t * 4 + 4)));
}

const hex = (rows: number[][]) => rows.map((r) => r.map((w) => `0x${(w >>> 0).toString(16)}`));

// ---- Pack4x8 and Unpack4x8 -----------------------------------------------------------------------

test('Pack4x8: truncated bytes, u8 clamp and s8 clamp, of i32 and i16 lanes', () => {
  const p = program((b) => {
    const pack = (mode: number, t: Type, xs: Value[]) =>
      b.call(`dx.op.pack4x8.${t.width === 16 ? 'i16' : 'i32'}`, b.i32, [b.int(220), b.int(mode, b.i8), ...xs]);
    const i = (n: number) => b.int(n >>> 0);
    const h = (n: number) => b.int(n & 0xffff, b.i16);
    return [
      // low bytes: 0x1ff -> ff, 0x80, -1 -> ff, thread id + 0x12
      pack(0, b.i32, [i(0x1ff), i(0x80), i(-1), b.add(b.tidX, i(0x12))]),
      // clamp to [0, 255]: -5 -> 0, 300 -> 255, 128, 7
      pack(1, b.i32, [i(-5), i(300), i(128), i(7)]),
      // clamp to [-128, 127]: -200 -> 0x80, 200 -> 0x7f, -1 -> 0xff, 5
      pack(2, b.i32, [i(-200), i(200), i(-1), i(5)]),
      // the same of i16 lanes (held as their 16 bits, sign-extended by the clamp)
      pack(2, b.i16, [h(-200), h(200), h(-1), h(5)]),
    ];
  });
  assert.deepEqual(hex(run(p, 2)), [
    ['0x12ff80ff', '0x780ff00', '0x5ff7f80', '0x5ff7f80'],
    ['0x13ff80ff', '0x780ff00', '0x5ff7f80', '0x5ff7f80'],
  ]);
});

test('Unpack4x8: bytes zero- and sign-extended to i32 and to i16', () => {
  const p = program((b) => {
    const pk = b.add(b.int(0x80ff7f01), b.tidX); // thread 1: 0x80ff7f02
    const unpack = (mode: number, t: Type) =>
      b.call(`dx.op.unpack4x8.${t.width === 16 ? 'i16' : 'i32'}`, b.struct(t, 4, `dx.types.fouri${t.width}`), [
        b.int(219),
        b.int(mode, b.i8),
        pk,
      ]);
    const u = unpack(0, b.i32);
    const s = unpack(1, b.i32);
    const s16 = unpack(1, b.i16);
    // unsigned byte 0; signed bytes 2 (0xff) and 3 (0x80); a signed byte 3 as i16 (zext to i32: 0xff80)
    return [b.part(u, 0, b.i32), b.part(s, 2, b.i32), b.part(s, 3, b.i32), b.part(s16, 3, b.i16)];
  });
  assert.deepEqual(hex(run(p, 2)), [
    ['0x1', '0xffffffff', '0xffffff80', '0xff80'],
    ['0x2', '0xffffffff', '0xffffff80', '0xff80'],
  ]);
});

// ---- packed dot products -------------------------------------------------------------------------

test('Dot4AddI8Packed, Dot4AddU8Packed and Dot2AddHalf', () => {
  const p = program((b) => {
    const a = b.int(0x0102ff80);
    const c = b.int(0x03fe0102);
    const acc = b.add(b.int(10), b.tidX);
    const dot2 = b.call('dx.op.dot2AddHalf.f32', b.f32, [
      b.int(162),
      b.float(0.5),
      b.half(0x3e00), // ax 1.5
      b.half(0xc000), // ay -2
      b.half(0x4400), // bx 4
      b.half(0x3400), // by 0.25
    ]);
    return [
      b.call('dx.op.dot4AddPacked.i32', b.i32, [b.int(163), acc, a, c]),
      b.call('dx.op.dot4AddPacked.i32', b.i32, [b.int(164), acc, a, c]),
      dot2,
      b.call('dx.op.dot4AddPacked.i32', b.i32, [b.int(164), b.int(0xffffffff), b.int(0xffffffff), b.int(0xffffffff)]),
    ];
  });
  // signed bytes of a (low first) -128, -1, 2, 1; of c 2, 1, -2, 3: -256 - 1 - 4 + 3 = -258, + 10 = -248
  // unsigned: 128*2 + 255*1 + 2*254 + 1*3 = 1022, + 10 = 1032
  // 0.5 + (1.5 * 4 + -2 * 0.25) = 6.0; 0xffffffff + 4 * 255 * 255 wraps at 32 bits: 260099 = 0x3f803
  assert.deepEqual(hex(run(p, 2)), [
    ['0xffffff08', '0x408', '0x40c00000', '0x3f803'],
    ['0xffffff09', '0x409', '0x40c00000', '0x3f803'],
  ]);
});

// ---- level of detail and pull-model interpolation (a pixel program) -------------------------------

const BLIT = join(FIXTURES, 'dxil/d3d12__D3D12_Blit__g_BlitFrom2DArray.dxil');

/** SDL's BlitFrom2DArray (a Texture2DArray t0, sampler s0, texcoord input 0) with its sample and
 * outputs replaced by `build`'s four lanes (the texcoord's u and v given). */
function pixelProgram(build: (b: Body, u: Value, v: Value, srv: Value, sampler: Value) => Value[]): Program {
  const c = parseContainer(readBytes(BLIT));
  const m = readPartModule(c, 'DXIL')!;
  const main = m.functions.find((f) => f.name === 'BlitFrom2DArray')!;
  const block = main.blocks[0]!;
  const sample = block.insts.find((i) => i.callee?.name === 'dx.op.sampleLevel.f32')!;
  block.insts = block.insts.filter((i) => i !== sample && i.ops[0] !== sample);
  const inputs = block.insts.filter((i) => i.callee?.name === 'dx.op.loadInput.f32');
  const stores = block.insts.filter((i) => i.callee?.name === 'dx.op.storeOutput.f32');
  const b = new Body(m, inputs[0]!, inputs[1]!);
  const lanes = build(b, inputs[0]!, inputs[1]!, sample.ops[1]!, sample.ops[2]!);
  stores.forEach((st, k) => (st.ops[4] = lanes[k]!));
  block.insts.splice(block.insts.indexOf(stores[0]!), 0, ...b.out);
  const p = liftModule(m, 'DXIL', 0);
  assert.deepEqual(validateModule(p.module), []);
  wgsl.push(emitWgsl(p));
  return p;
}

test('CalculateLOD (as the SM4/5 lod), EvalSnapped and EvalCentroid on the executor', () => {
  const p = pixelProgram((b, u, v, srv, sampler) => {
    const lod = (clamped: boolean) =>
      b.call('dx.op.calculateLOD.f32', b.f32, [
        b.int(81),
        srv,
        sampler,
        u,
        v,
        b.float(0),
        b.int(clamped ? 1 : 0, b.i1),
      ]);
    // input 0 column 0 (u) moved by (4, -4) sixteenths of a pixel; column 1 (v) at the centroid
    const snapped = b.call('dx.op.evalSnapped.f32', b.f32, [
      b.int(87),
      b.int(0),
      b.int(0),
      b.int(0, b.i8),
      b.int(4),
      b.int(-4 >>> 0),
    ]);
    const centroid = b.call('dx.op.evalCentroid.f32', b.f32, [b.int(89), b.int(0), b.int(0), b.int(1, b.i8)]);
    return [lod(false), lod(true), snapped, centroid];
  });
  assert.ok(p.notes.some((n) => n.startsWith('lod is computed')));
  assert.ok(p.notes.some((n) => n.startsWith('eval_snapped steps')));
  // texcoord (x / 4, y / 8 + 2 * x) at pixel (x, y) of a 4x4 target; a 16x16 texture of 5 levels
  const W = 4;
  const H = 4;
  const uv = new Float32Array(W * H * 4);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      uv[(y * W + x) * 4] = x / 4;
      uv[(y * W + x) * 4 + 1] = y / 8 + 2 * x;
    }
  const tex = p.interface.resources.find((r) => r.registerClass === 't')!;
  const levels = [16, 8, 4, 2, 1].map((n) => new Uint32Array(n * n * 4));
  const r = runPixel(p, {
    width: W,
    height: H,
    inputs: { 0: new Uint32Array(uv.buffer) },
    buffers: { '0:0': new Uint32Array(8) }, // the blit's constant buffer, read but unused here
    textures: { [`${tex.group}:${tex.binding}`]: { width: 16, height: 16, depthOrLayers: 1, levels } },
  });
  const out = new Float32Array(r.targets[0]!.buffer);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const o = out.subarray((y * W + x) * 4, (y * W + x) * 4 + 4);
      // d/dx (u, v) = (1/4, 2), d/dy = (0, 1/8); in texels (4, 32) and (0, 2): rho^2 = max(16 + 1024, 4);
      // lod = log2(1040) / 2 = 5.0112..., clamped to the 4 of the last level
      assert.equal(o[0], Math.fround(0.5 * Math.fround(Math.log2(1040))), `unclamped lod at ${x},${y}`);
      assert.equal(o[1], 4, `clamped lod at ${x},${y}`);
      // u + ddx_fine(u) * 4/16 + ddy_fine(u) * -4/16 = x / 4 + 1/16
      assert.equal(o[2], x / 4 + 1 / 16, `snapped u at ${x},${y}`);
      assert.equal(o[3], Math.fround(y / 8 + 2 * x), `centroid v at ${x},${y}`);
    }
});

test('TextureGatherRaw: the red words of the four footprint texels, as bits', () => {
  const p = pixelProgram((b, _u, _v, srv, sampler) => {
    const undef = new Constant(b.f32, 'undef');
    const g = b.call('dx.op.textureGatherRaw.i32', b.struct(b.i32, 5, 'dx.types.ResRet.i32'), [
      b.int(223),
      srv,
      sampler,
      b.float(0.5),
      b.float(0.5),
      b.float(0), // layer 0
      undef,
      b.int(0),
      b.int(0),
    ]);
    return [0, 1, 2, 3].map((k) => b.asFloat(b.part(g, k, b.i32)));
  });
  // a 4x4 texture whose texel (x, y) holds red 0x3f800000 + 4y + x (other lanes 0)
  const level = new Uint32Array(4 * 4 * 4);
  for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) level[(y * 4 + x) * 4] = 0x3f800000 + 4 * y + x;
  const tex = p.interface.resources.find((r) => r.registerClass === 't')!;
  const textures = { [`${tex.group}:${tex.binding}`]: { width: 4, height: 4, depthOrLayers: 1, levels: [level] } };
  const r = runPixel(p, {
    width: 1,
    height: 1,
    buffers: { '0:0': new Uint32Array(8) },
    textures,
    sample: nearestClampSampler(textures),
  });
  // (0.5, 0.5) * 4 = (2, 2): the footprint's top-left texel is (1, 1); Direct3D's order (0,1), (1,1), (1,0), (0,0)
  const at = (x: number, y: number) => 0x3f800000 + 4 * y + x;
  assert.deepEqual(Array.from(r.targets[0]!.subarray(0, 4)), [at(1, 2), at(2, 2), at(2, 1), at(1, 1)]);
});

// vkd3d-proton's tests/d3d12_shaders.c (LGPL, read from ../shared, not committed): a pixel program
// writing Texture2DMSGetSamplePosition(t0, cb0[0].x) to its target
const SAMPLEPOS = 'corpus/dxil/vkd3d-proton/tests__d3d12_shaders__ps_code_dxil_d01924b6_4.dxil';

test(
  "Texture2DMSGetSamplePosition: Direct3D's standard pattern (samplepos's table), zero out of range",
  { skip: skipUnlessShared(SAMPLEPOS) },
  () => {
    const p = lift(readBytes(sharedPath(SAMPLEPOS)!));
    assert.deepEqual(validateModule(p.module), []);
    wgsl.push(emitWgsl(p));
    const tex = p.interface.resources.find((r) => r.registerClass === 't')!;
    const position = (samples: number, index: number): number[] => {
      const textures = {
        [`${tex.group}:${tex.binding}`]: {
          width: 1,
          height: 1,
          depthOrLayers: 1,
          levels: [new Uint32Array(4)],
          samples,
        },
      };
      const r = runPixel(p, { width: 1, height: 1, buffers: { '0:0': new Uint32Array([index, 0, 0, 0]) }, textures });
      return Array.from(new Float32Array(r.targets[0]!.buffer).subarray(0, 2));
    };
    // D3D11_STANDARD_MULTISAMPLE_PATTERN in sixteenths of a pixel: 1 sample (0, 0); 2: (4, 4), (-4, -4);
    // 4: (-2, -6), (6, -2), (-6, 2), (2, 6); 8: sample 5 (-7, -1); 16: sample 15 (-7, -8)
    assert.deepEqual(position(1, 0), [0, 0]);
    assert.deepEqual(position(2, 1), [-0.25, -0.25]);
    assert.deepEqual(
      [0, 1, 2, 3].map((k) => position(4, k)),
      [
        [-0.125, -0.375],
        [0.375, -0.125],
        [-0.375, 0.125],
        [0.125, 0.375],
      ],
    );
    assert.deepEqual(position(8, 5), [-7 / 16, -1 / 16]);
    assert.deepEqual(position(16, 15), [-7 / 16, -0.5]);
    // an index past the count, and a count that is not a standard one, give zero
    assert.deepEqual(position(4, 4), [0, 0]);
    assert.deepEqual(position(3, 0), [0, 0]);
  },
);

// ---- barriers and the view id --------------------------------------------------------------------

test('BarrierByMemoryType and ViewID: a barrier of the memory named, and view 0', () => {
  const p = program((b) => {
    b.call('dx.op.barrierByMemoryType', b.voidT, [b.int(244), b.int(1), b.int(1)]); // UAV memory, group sync
    b.call('dx.op.barrierByMemoryType', b.voidT, [b.int(244), b.int(2), b.int(1)]); // group-shared memory
    const v = b.call('dx.op.viewID.i32', b.i32, [b.int(138)]);
    return [v, b.int(1), b.int(2), b.int(3)];
  });
  const text = wgsl.at(-1)!;
  assert.match(text, /storageBarrier\(\)/);
  assert.match(text, /workgroupBarrier\(\)/);
  assert.ok(p.notes.some((n) => n.startsWith('ViewID is 0')));
  assert.deepEqual(run(p, 1), [[0, 1, 2, 3]]);
});

test('operations with no WGSL counterpart are refused by name', () => {
  const refused = (op: number, name: string, args: (b: Body) => Value[] = () => [], ret?: 'void'): string => {
    try {
      program((b) => {
        const r = b.call(name, ret ? b.voidT : b.i32, [b.int(op), ...args(b)]);
        return [ret ? b.int(0) : r, b.int(0), b.int(0), b.int(0)];
      });
    } catch (e) {
      assert.ok(e instanceof IridiaError && e.code === 'E601_LIFT_UNSUPPORTED', String(e));
      return e.reason.split(':')[0]!;
    }
    return assert.fail(`dx.op ${op} lifted`);
  };
  // StartVertexLocation/StartInstanceLocation lift as the lift options (test/lift/draw-start.test.ts);
  // outside a vertex program they are invalid (DXIL's rule)
  for (const [op, name] of [
    [257, 'dx.op.startInstanceLocation.i32'],
    [256, 'dx.op.startVertexLocation.i32'],
  ] as const)
    assert.throws(
      () => program((b) => [b.call(name, b.i32, [b.int(op)]), b.int(0), b.int(0), b.int(0)]),
      (e: unknown) =>
        e instanceof IridiaError && e.code === 'E602_LIFT_INVALID' && /outside a vertex program/.test(e.reason),
    );
  // RenderTargetGetSampleCount lifts as the option rasterizerSampleCount (test/lift/rasterizer-samples.test.ts)
  // a barrier on node records belongs to work graphs
  assert.equal(
    refused(244, 'dx.op.barrierByMemoryType', (b) => [b.int(4), b.int(1)], 'void'),
    'work graphs',
  );
});

// ---- descriptor heaps ----------------------------------------------------------------------------

test('descriptor heaps: one binding array per kind of view, after the ranges of its group, spaces 0xfffffff0/1', () => {
  const vs = lift(readBytes(HELIOS_VS));
  const ps = lift(readBytes(HELIOS_PS));
  for (const p of [vs, ps]) {
    assert.deepEqual(validateModule(p.module), []);
    wgsl.push(emitWgsl(p));
  }
  const table = (p: Program) =>
    p.interface.resources.map((r) => [r.name, r.registerClass, r.space, r.group, r.binding, r.count, r.reflectedName]);
  // VS: cb0 (its own range) at b0; from the heap two constant buffers (96 and 128 bytes: one kind,
  // the larger size) after it, and structured buffers of strides 8 and 12 (stride order) in group 1
  assert.deepEqual(table(vs).slice(1), [
    ['rheap_b0', 'b', RESOURCE_HEAP_SPACE, 0, 1, null, 'ResourceDescriptorHeap'],
    ['rheap_t1', 't', RESOURCE_HEAP_SPACE, 1, 0, null, 'ResourceDescriptorHeap'],
    ['rheap_t2', 't', RESOURCE_HEAP_SPACE, 1, 16, null, 'ResourceDescriptorHeap'],
  ]);
  assert.deepEqual(table(vs)[0]!.slice(0, 6), ['cb0', 'b', 0, 0, 0, 1]);
  assert.deepEqual(table(ps).slice(1), [
    ['rheap_t0', 't', RESOURCE_HEAP_SPACE, 1, 0, null, 'ResourceDescriptorHeap'],
    ['sheap_s0', 's', SAMPLER_HEAP_SPACE, 2, 0, null, 'SamplerDescriptorHeap'],
  ]);
  assert.ok(
    vs.notes.some((n) => /^rheap_t2: ResourceDescriptorHeap .* group 1 from binding 16 \(16 bindings\)/.test(n)),
  );
  assert.ok(ps.notes.some((n) => n.startsWith('sheap_s0: SamplerDescriptorHeap')));
});

test('descriptor heaps on the executor: the vertex program reads its buffers and matrices by heap index', () => {
  const vs = lift(readBytes(HELIOS_VS));
  const at = (name: string) => vs.interface.resources.find((r) => r.name === name)!;
  const key = (name: string, element?: number) => {
    const r = at(name);
    return element === undefined ? `${r.group}:${r.binding}` : `${r.group}:${r.binding}:${element}`;
  };
  const f = (...v: number[]) => new Uint32Array(new Float32Array(v).buffer);
  const u = (...v: number[]) => new Uint32Array(v);
  // cb0 row 0: the heap indices of the positions (3) and texture coordinates (5); row 1: of the
  // 128-byte constant buffer (2, a matrix in rows 0-3) and of the 96-byte one (7, a matrix in rows 2-5)
  const cb0 = u(3, 5, 0, 0, 2, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  const translate = f(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 20, 30, 1, ...new Array<number>(16).fill(0));
  const identity = f(
    ...new Array<number>(8).fill(0),
    1,
    0,
    0,
    0,
    0,
    1,
    0,
    0,
    0,
    0,
    1,
    0,
    0,
    0,
    0,
    1,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
  );
  const positions = f(1, 2, 3, -4, 5, 0.5, 0, 0, 0);
  const uvs = f(0.25, 0.75, 1, 0, 0, 0);
  // the 12-byte structured buffers are the second t array (strides 8 then 12)
  const buffers: Record<string, Uint32Array> = {
    [key('cb0')]: cb0,
    [key('rheap_b0', 2)]: translate,
    [key('rheap_b0', 7)]: identity,
    [key('rheap_t2', 3)]: positions,
    [key('rheap_t1', 5)]: uvs,
  };
  const r = runVertex(vs, { vertexCount: 3, buffers });
  const pos = Array.from(new Float32Array(r.outputs['position']!.buffer));
  // position = (p, 1) * translate (row vectors): p + (10, 20, 30), w = 1
  assert.deepEqual(pos, [11, 22, 33, 1, 6, 25, 30.5, 1, 10, 20, 30, 1]);
  const uv = Object.entries(r.outputs).find(([k]) => k !== 'position')![1];
  assert.deepEqual(
    Array.from(new Float32Array(uv.buffer)).filter((_, k) => k % 4 < 2),
    [0.25, 0.75, 1, 0, 0, 0],
  );
});

test('Tint compiles the WGSL of every program above', { skip: webgpuSkip() }, async () => {
  assert.ok(wgsl.length >= 6);
  const results = await compileWgsl(wgsl);
  const failed = results.map((r, i) => (r.ok ? undefined : `${i}: ${r.messages.join(' | ')}`)).filter((x) => x);
  assert.deepEqual(failed, []);
});
