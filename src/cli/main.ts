// The iridia command line: a table of commands, each a module under commands/ loaded on demand.
// Exit status: 0 all inputs fine, 1 some input invalid or refused, 2 usage error, 3 internal error.

import { UsageError } from './args.js';
import { IridiaError } from '../errors.js';
import { InputError, currentInput, jsonError } from './io.js';

/** iridia's version (package.json's; test/cli/contract.test.ts checks that they agree). */
export const VERSION = '0.1.0';

export interface CommandModule {
  /** Runs the command; returns the exit status. */
  run(argv: string[]): Promise<number> | number;
  /** The full `--help` text: usage, every option explained, one real example (usage + summary without it). */
  readonly help?: string;
}

interface CommandEntry {
  readonly summary: string;
  readonly usage: string;
}

async function loadCommand(name: string): Promise<CommandModule> {
  // Each command lives in commands/<name>.ts; loading on demand keeps start-up fast.
  try {
    return (await import(`./commands/${name}.js`)) as CommandModule;
  } catch (e) {
    if ((e as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' && String(e).includes(`commands/${name}.js`)) {
      throw new UsageError(`this build of iridia has no '${name}' command: run 'npm run build' in the checkout`);
    }
    throw e;
  }
}

export const commands: Readonly<Record<string, CommandEntry>> = {
  info: {
    summary: 'header, digest state, part table and findings of a container',
    usage: 'iridia info [--json] [-o OUT] FILE',
  },
  verify: {
    summary: 'check digests (and round trips) of containers in files and folders',
    usage: 'iridia verify [--roundtrip] [--json] PATH...',
  },
  sign: {
    summary: 'write a container with its digest recomputed',
    usage: 'iridia sign FILE [-o OUT] [--json]',
  },
  part: {
    summary: "extract, replace, add or remove a container's part",
    usage: 'iridia part FILE KIND [-o OUT] | --replace BYTES -o OUT | --add BYTES -o OUT | --remove -o OUT',
  },
  strip: {
    summary: "remove reflection, debug, private or root-signature parts as fxc's /Qstrip_* do",
    usage: 'iridia strip [--reflect] [--debug] [--priv] [--rootsignature] FILE [-o OUT] [--json]',
  },
  census: {
    summary: 'count container kinds, program versions, part sets and findings over folders',
    usage: 'iridia census [--json] [--decode] [--jobs N] PATH...',
  },
  carve: {
    summary: 'find containers embedded in any binary and write each as its own file',
    usage: 'iridia carve FILE... --out-dir DIR [--keep-unsigned] [--keep-stale] [--json]',
  },
  disasm: {
    summary: "disassemble a container (or Direct3D 9 program) as Microsoft's D3DDisassemble does",
    usage:
      'iridia disasm [--flags N] [--era E] [-o OUT] [--json] FILE | iridia disasm [--flags N] [--era E] FILE... --out-dir DIR [--root R] [--jobs N] [--json]',
  },
  assemble: {
    summary:
      'assemble a Shader Model 4/5/5.1 listing back into a container (--like: its other parts), or a Direct3D 9 listing into its token stream',
    usage:
      'iridia assemble LISTING [--like CONTAINER] [-o OUT] [--json] | iridia assemble LISTING... --out-dir DIR [--root R] [--like CONTAINER|DIR] [--json]',
  },
  reflect: {
    summary: "reflection of a container (--d3d: D3DReflect's shape)",
    usage: 'iridia reflect [--json] [--d3d] [-o OUT] FILE | iridia reflect --d3d FILE... --out-dir DIR [--root R]',
  },
  lift: {
    summary: 'lift a program to the IR and emit WGSL',
    usage:
      'iridia lift [--wgsl | --ir] [--json] [-o OUT] FILE | iridia lift --wgsl FILE... --out-dir DIR [--root R] [--jobs N] [--json]',
  },
  skate: {
    summary: "skate.'s engine structures and register map",
    usage:
      'iridia skate binding-set|pass-binding|input-layout|render-state FILE [-o OUT] [--json] | iridia skate map PROGRAM --sets SET0 SET1 --pass PASS [--layout L] [--usage N=NAME,...] [--state S] [-o OUT] [--json] | iridia skate census DIR... [-o OUT] [--json]',
  },
  decompile: {
    summary: 'decompile a program to readable HLSL (or --wgsl), proven equivalent on the executor',
    usage:
      'iridia decompile [--hlsl | --wgsl] [--json] [-o OUT] FILE | iridia decompile [--hlsl | --wgsl] FILE... --out-dir DIR [--root R] [--json]',
  },
  source: {
    summary: 'the HLSL source a /Zi build embeds (SPDB, SDBG; DXIL: SRCI or dx.source.contents)',
    usage: 'iridia source [--list] [--file N] [--json] [-o OUT] FILE',
  },
  run: {
    summary: 'run a lifted program on the CPU executor (or --gpu through WebGPU)',
    usage:
      'iridia run FILE --input JSON [--gpu] | iridia run --seed S FILE [--workgroups X,Y,Z] [--size WxH] [--vertices N] [--json] [--gpu]',
  },
};

export function helpText(): string {
  const names = Object.keys(commands);
  const width = Math.max(...names.map((n) => n.length));
  const rows = names.map((n) => `  ${n.padEnd(width)}  ${commands[n]!.summary}`);
  return [
    'iridia — read, check, disassemble, reflect and lift compiled Direct3D shaders',
    '',
    'usage: iridia COMMAND [OPTIONS] ARGS',
    '',
    'commands:',
    ...rows,
    '',
    'options:',
    "  --help, -h   this text (iridia COMMAND --help: the command's options and an example)",
    '  --version    the version of iridia',
    '',
    "Every command reads standard input for a FILE named '-'; one that writes one output takes -o FILE;",
    '--json prints one object with "schema": "iridia.COMMAND/1" (errors too; docs/json.md).',
    "Run 'iridia COMMAND --help' for a command's options.",
    'Exit status: 0 all inputs fine, 1 some input invalid or refused, 2 usage error, 3 internal error.',
    '',
  ].join('\n');
}

/** A reader that stops reading (`iridia disasm X | head`) closes the pipe: the rest of the output
 * has nowhere to go, so the command ends there, quietly, as other command-line tools do, instead of
 * an unhandled EPIPE. Any other error of the stream is left to Node. */
let pipeGuarded = false;
function quietOnClosedPipe(): void {
  if (pipeGuarded) return;
  pipeGuarded = true;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

export async function main(argv: string[]): Promise<number> {
  quietOnClosedPipe();
  const [name, ...rest] = argv;
  if (name === undefined) {
    process.stderr.write(helpText());
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(helpText());
    return 0;
  }
  if (name === '--version' || name === '-V') {
    process.stdout.write(`iridia ${VERSION}\n`);
    return 0;
  }
  const entry = commands[name];
  if (entry === undefined) {
    process.stderr.write(`iridia: unknown command '${name}'\n\n${helpText()}`);
    return 2;
  }
  const options = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  const json = options.includes('--json');
  try {
    const mod = await loadCommand(name);
    if (options.includes('--help') || options.includes('-h')) {
      process.stdout.write(mod.help ?? `usage: ${entry.usage}\n\n${entry.summary}\n`);
      return 0;
    }
    return await mod.run(rest);
  } catch (e) {
    const status =
      e instanceof UsageError ? 2 : e instanceof IridiaError || e instanceof InputError || isFsError(e) ? 1 : 3;
    if (json) {
      // --json: the error is JSON on stdout (docs/json.md, "Errors"), the exit status as without it.
      process.stdout.write(`${JSON.stringify(jsonError(name, e), null, 2)}\n`);
      if (status === 3 && process.env['IRIDIA_DEBUG'] && e instanceof Error) process.stderr.write(`${e.stack}\n`);
      return status;
    }
    const at = currentInput();
    const where = at !== undefined && !(e instanceof InputError) ? `${at === '-' ? 'standard input' : at}: ` : '';
    if (e instanceof UsageError) {
      process.stderr.write(`iridia ${name}: ${e.message}\nusage: ${entry.usage}\n`);
      return 2;
    }
    if (e instanceof IridiaError) {
      process.stderr.write(`iridia ${name}: ${where}${e.message} [${e.code}]\n`);
      return 1;
    }
    if (e instanceof InputError) {
      process.stderr.write(`iridia ${name}: ${e.message}\n`);
      return 1;
    }
    if (isFsError(e)) {
      process.stderr.write(`iridia ${name}: ${String((e as { message?: unknown }).message)}\n`);
      return 1;
    }
    process.stderr.write(
      `iridia ${name}: ${where}internal error (a bug in iridia, please report it): ${e instanceof Error ? e.message : String(e)}\n`,
    );
    if (process.env['IRIDIA_DEBUG'] && e instanceof Error) process.stderr.write(`${e.stack}\n`);
    return 3;
  }
}

function isFsError(e: unknown): boolean {
  return typeof (e as { syscall?: unknown })?.syscall === 'string';
}
