// The arguments tools/pretenure.ts and tools/ab-process.ts share: positional arguments of the tool's
// own, then `[pairs]`, and `--dxil` anywhere (corpus/dxil instead of corpus/dxbc). A wrong count or an
// absent ../shared exits 2 with one line.

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
  const pairsArg = positional[leading];
  const pairs = pairsArg === undefined ? defaultPairs : Number(pairsArg);
  if (!Number.isInteger(pairs) || pairs < 1) {
    console.error(`${tool}: ${countName} must be a positive integer, not ${pairsArg}`);
    process.exit(2);
  }
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
