// A module hook for the CLI tests (node --import ./test/cli/fault-hooks.mjs bin/iridia.js ...): with
// IRIDIA_TEST_FAULT=NAME, the command module NAME (commands/NAME.js, as main.js, or dist/node/cli.js, loads it) is replaced by
// one whose run() throws a plain TypeError, as a bug in iridia would. Nothing else is changed.
import { register } from 'node:module';

const name = process.env['IRIDIA_TEST_FAULT'];
if (name) {
  const faulty = `export async function run() { null.boom(); }`;
  register(
    `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier === './commands/${name}.js' && /\\/(cli\\/main|node\\/cli)\\.js$/.test(context.parentURL ?? ''))
    return { url: 'data:text/javascript,${encodeURIComponent(faulty)}', shortCircuit: true };
  return next(specifier, context);
}`)}`,
  );
}
