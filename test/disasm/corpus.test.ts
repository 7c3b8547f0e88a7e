// Every Microsoft listing of ../shared/oracle and ../shared/corpus/dxbc, byte for byte (flag 0 and
// every flag-word sample), counted per group (plain, level 9, debug information, libraries, effects); misses
// are named and checked against test/known/disasm.txt.

import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { parseContainer } from '../../src/container/container.js';
import { disassemble } from '../../src/disasm/disassemble.js';
import { isBareEffect } from '../../src/disasm/effect.js';
import { IridiaError } from '../../src/errors.js';
import { reportAgainstKnown } from '../helpers/known.js';
import { SHARED, firstDifference, readBytes, sharedPath, skipUnlessShared } from '../helpers/shared.js';
import { corpusCases, groupOf, oracleCases, type ListingCase } from './listings.js';

test(
  'disassemble() reproduces every oracle and corpus listing byte for byte',
  { skip: skipUnlessShared('oracle') || skipUnlessShared('corpus/dxbc') },
  () => {
    const cases: ListingCase[] = [...oracleCases(sharedPath('oracle')!), ...corpusCases(sharedPath('corpus/dxbc')!)];
    const failures = new Map<string, string>();
    const groups = new Map<string, [number, number]>();
    for (const k of cases) {
      const name = relative(SHARED, k.listing);
      const bytes = readBytes(k.container);
      let c;
      try {
        // a bare fx_5_0 effect is no container: disassemble() reads its bytes
        c = isBareEffect(bytes) ? bytes : parseContainer(bytes);
      } catch (e) {
        // a file the container layer refuses: a miss of its own group, not a crash of the whole comparison
        if (!(e instanceof IridiaError)) throw e;
        failures.set(name, `unreadable: ${e.code}: ${e.message}`);
        continue;
      }
      const group = c instanceof Uint8Array ? 'effect' : groupOf(c);
      const row = groups.get(group) ?? [0, 0];
      groups.set(group, row);
      row[1]++;
      let got: string;
      try {
        got = disassemble(c, k.flags);
      } catch (e) {
        failures.set(name, `${group}: ${(e as Error).message}`);
        continue;
      }
      const diff = firstDifference(got, readFileSync(k.listing, 'latin1'));
      if (diff === undefined) row[0]++;
      else failures.set(name, `${group}: ${diff.replace(/\n/g, ' | ')}`);
    }
    for (const [g, [ok, n]] of groups) console.log(`disasm ${g}: ${ok}/${n} listings match`);
    reportAgainstKnown('disasm', { total: cases.length, failures });
  },
);
