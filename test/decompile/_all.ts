import { census, describeCensus } from './census.js';
import { walk } from '../helpers/shared.js';
const files = ['/work/shared/corpus/dxbc', '/work/shared/corpus/dxbc-sm51'].flatMap((d) => walk(d).filter((f) => f.endsWith('.dxbc'))).sort();
const t0 = Date.now();
const c = census(files, false);
console.log(describeCensus('corpus all (no run)', c));
for (const d of c.differences) console.log('DIFF', d);
console.log('ms', Date.now() - t0);
