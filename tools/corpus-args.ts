// The arguments tools/pretenure.ts and tools/ab-process.ts share: positional arguments of the tool's
// own, then `[pairs]`, and `--dxil` anywhere (corpus/dxil instead of corpus/dxbc). A wrong count or an
// absent ../shared exits 2 with one line. The DXIL A/B tools' (ab-listing, ab-read): a base tree and
// a count. Also the pieces other measuring tools (ab-lift, survivors) parse their own arguments
// with: a positive count, and an option that takes a value.

import { sharedPath } from '../test/helpers/shared.js';

export interface CorpusArgs {
  /** The tool's own positional arguments, before the count of pairs. */
  readonly leading: readonly (string | undefined)[];
  readonly dxil: boolean;
  readonly pairs: number;
  /** The corpus folder under ../shared, and the extension of its containers. */
  readonly folder: string;
  readonly ext: '.dxil' | '.dxbc';
}

/** `countName`: what the count after the tool's own arguments is called in the error it gives. */
export function corpusArgs(
  tool: string,
  argv: readonly string[],
  leading: number,
  defaultPairs: number,
  countName = 'pairs',
): CorpusArgs {
  const dxil = argv.includes('--dxil');
  const positional = argv.filter((a) => a !== '--dxil');
  const pairs = positiveArg(tool, countName, positional[leading], defaultPairs);
  const folder = sharedPath(dxil ? 'corpus/dxil' : 'corpus/dxbc');
  if (!folder) {
    console.error(`${tool}: ../shared/corpus is absent (set IRIDIA_SHARED to point at the shared data)`);
    process.exit(2);
  }
  return {
    leading: Array.from({ length: leading }, (_, k) => positional[k]),
    dxil,
    pairs,
    folder,
    ext: dxil ? '.dxil' : '.dxbc',
  };
}

/** `BASE_TREE [count]` of a DXIL A/B tool (tools/NAME.ts), and ../shared/corpus/dxil; a missing base
 * tree, a wrong count or an absent corpus exits 2 with one line. */
export function dxilAbArgs(
  tool: string,
  argv: readonly string[],
  countName: string,
  defaultCount: number,
): { base: string; count: number; folder: string } {
  const [base, countArg] = argv;
  if (base === undefined) {
    console.error(`usage: node --import tsx tools/${tool}.ts BASE_TREE [${countName}]`);
    process.exit(2);
  }
  const count = positiveArg(tool, countName, countArg, defaultCount);
  const folder = sharedPath('corpus/dxil');
  if (!folder) {
    console.error(`${tool}: ../shared/corpus/dxil is absent (set IRIDIA_SHARED to point at the shared data)`);
    process.exit(2);
  }
  return { base, count, folder };
}

/** `arg` as a positive integer, `fallback` when absent; anything else exits 2 naming `what`. */
export function positiveArg(tool: string, what: string, arg: string | undefined, fallback: number): number {
  const n = arg === undefined ? fallback : Number(arg);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`${tool}: ${what} must be a positive integer, not ${arg}`);
    process.exit(2);
  }
  return n;
}

/** Option `name` with its value (`--name VALUE`) taken out of `argv`: the value (undefined when the
 * option is absent, '' when it has none) and the other arguments, in order. */
export function takeOption(argv: readonly string[], name: string): { value: string | undefined; rest: string[] } {
  const at = argv.indexOf(name);
  if (at < 0) return { value: undefined, rest: [...argv] };
  return { value: argv[at + 1] ?? '', rest: argv.filter((_, i) => i !== at && i !== at + 1) };
}
