// Runs every test/**/*.test.ts with node's test runner (Node 20's --test takes no glob).
// Extra arguments filter the files by substring: `npm run test:unit -- disasm`.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const filters = process.argv.slice(2);
const files = [];
const walk = (d) => {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'fixtures') walk(p);
    } else if (e.name.endsWith('.test.ts') && (filters.length === 0 || filters.some((f) => p.includes(f))))
      files.push(p);
  }
};
walk('test');
files.sort();
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
