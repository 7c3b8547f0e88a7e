// What the register mapping and the input-layout check need of a program, read from its container
// through iridia's own layers: the resource declarations (register class, first register, count,
// space, a constant buffer's byte size) and the input signature. DXIL: the module's dx.resources
// (src/dxil/reflect.ts); DXBC: RDEF's bindings and buffer sizes, or, without an RDEF, the lifted
// program's interface (the token stream's dcl_ declarations, src/lift).

import { parseContainer, type Container } from '../../container/container.js';
import { reflectDxilProgram, isDxilContainer } from '../../reflect/dxil.js';
import { readRdef } from '../../parts/rdef.js';
import { readSignature, type SignatureElement } from '../../parts/signature.js';
import { liftContainer } from '../../lift/lift.js';

export type RegisterClass = 'b' | 't' | 's' | 'u';

export interface Declaration {
  readonly name: string;
  readonly registerClass: RegisterClass;
  readonly register: number;
  /** Registers the declaration spans; null for an unbounded range. */
  readonly count: number | null;
  readonly space: number;
  /** Constant buffers: the declared size in bytes. */
  readonly bufferSize?: number;
}

export interface ProgramFacts {
  /** 'DXIL' or 'DXBC'. */
  readonly bytecode: 'DXIL' | 'DXBC';
  readonly declarations: readonly Declaration[];
  /** The input signature (ISG1 or ISGN), empty when the container has none. */
  readonly inputs: readonly SignatureElement[];
}

const DXIL_CLASS = { CBuffer: 'b', SRV: 't', Sampler: 's', UAV: 'u' } as const;

/** D3D_SHADER_INPUT_TYPE to the register class it binds (0 cbuffer, 1 tbuffer, 2 texture, 3 sampler,
 * 4 typed UAV, 5 structured, 6 structured UAV, 7 byte-address, 8 byte-address UAV, 9 append, 10
 * consume, 11 structured UAV with counter, 12 acceleration structure, 13 feedback texture). */
const SIT_CLASS: readonly RegisterClass[] = ['b', 't', 't', 's', 'u', 't', 'u', 't', 'u', 'u', 'u', 'u', 't', 'u'];

function inputSignature(c: Container): SignatureElement[] {
  for (const kind of ['ISG1', 'ISGN'] as const) {
    const p = c.parts.find((x) => x.kind === kind);
    if (p) return [...readSignature(kind, p.data, p.offset + 8).elements];
  }
  return [];
}

export function programFacts(bytes: Uint8Array): ProgramFacts {
  const c = parseContainer(bytes);
  const inputs = inputSignature(c);
  if (isDxilContainer(c)) {
    const r = reflectDxilProgram(c);
    const declarations = r.resources.map((x): Declaration => ({
      name: x.name,
      registerClass: DXIL_CLASS[x.class],
      register: x.lowerBound,
      count: x.count ?? null,
      space: x.space,
      ...(x.class === 'CBuffer' && x.size !== undefined ? { bufferSize: x.size } : {}),
    }));
    return { bytecode: 'DXIL', declarations, inputs };
  }
  const rdefPart = c.parts.find((p) => p.kind === 'RDEF');
  if (rdefPart) {
    const rdef = readRdef(rdefPart.data, rdefPart.offset + 8);
    const declarations = rdef.bindings.map((b): Declaration => {
      const registerClass = SIT_CLASS[b.type] ?? 'u';
      const buffer = registerClass === 'b' ? rdef.constantBuffers.find((cb) => cb.name === b.name) : undefined;
      return {
        name: b.name,
        registerClass,
        register: b.bindPoint,
        count: b.bindCount === 0 ? null : b.bindCount,
        space: b.space,
        ...(buffer ? { bufferSize: buffer.size } : {}),
      };
    });
    return { bytecode: 'DXBC', declarations, inputs };
  }
  const lifted = liftContainer(c);
  const declarations = lifted.interface.resources.flatMap((r): Declaration[] =>
    r.registerClass === 'b' || r.registerClass === 't' || r.registerClass === 's' || r.registerClass === 'u'
      ? [
          {
            name: r.reflectedName || r.name,
            registerClass: r.registerClass,
            register: r.register,
            count: r.count,
            space: r.space,
            ...(r.kind.kind === 'constantBuffer' ? { bufferSize: r.kind.rows * 16 } : {}),
          },
        ]
      : [],
  );
  return { bytecode: 'DXBC', declarations, inputs };
}
