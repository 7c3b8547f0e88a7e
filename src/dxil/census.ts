// The DXIL section of `iridia census` (the extension point of src/container/census.ts): shader model
// and stage of each DXIL program, its DXIL version, and the dx.op census (calls by opcode number and
// name) over every module read, the latter under `census --decode` (it reads every module). A
// program that cannot be read is counted by its error code.

import type { CensusOptions, CensusSection } from '../container/census.js';
import { Tally } from '../container/census.js';
import type { Container } from '../container/container.js';
import { IridiaError } from '../errors.js';
import { dxOpCensus } from './dxop.js';
import { readModule } from './module.js';
import { readProgramHeader } from './program-header.js';

export function dxilCensusSection(options: CensusOptions = {}): CensusSection {
  const decode = options.decode === true;
  const models = new Tally();
  const versions = new Tally();
  const ops = new Tally();
  const errors = new Tally();
  let calls = 0;
  return {
    name: 'dxil',
    title: 'DXIL programs (shader model, DXIL version, dx.op calls)',
    add(c: Container): void {
      const p = c.parts.find((x) => x.kind === 'DXIL');
      if (!p) return;
      try {
        const h = readProgramHeader(p.data, 'DXIL', p.offset + 8);
        models.add(`${h.kind}_${h.major}_${h.minor}`);
        versions.add(`${h.dxilMajor}.${h.dxilMinor}`);
        if (!decode) return;
        const m = readModule(h.bitcode, { part: 'DXIL', offset: p.offset + 8 + h.bitcodeStart });
        for (const o of dxOpCensus(m)) {
          ops.add(`${String(o.opcode).padStart(3)} ${o.name}`, o.count);
          calls += o.count;
        }
      } catch (e) {
        if (!(e instanceof IridiaError)) throw e;
        errors.add(e.code);
      }
    },
    toJSON(): unknown {
      return {
        shaderModels: models.toJSON(),
        dxilVersions: versions.toJSON(),
        dxOpCalls: calls,
        dxOps: ops.toJSON(),
        refused: errors.toJSON(),
      };
    },
    toText(): string[] {
      return [
        '  shader models:',
        ...models.toText().map((l) => '  ' + l),
        '  DXIL versions:',
        ...versions.toText().map((l) => '  ' + l),
        ...(decode ? [`  dx.op calls: ${calls}`, ...ops.toText().map((l) => '  ' + l)] : []),
        ...(errors.size ? ['  refused:', ...errors.toText().map((l) => '  ' + l)] : []),
      ];
    },
  };
}
