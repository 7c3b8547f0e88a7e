// Command-line parsing shared by every command: flags declared per command, positional inputs,
// usage errors as UsageError (exit status 2).

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface FlagSpec {
  /** Takes a value (`--out-dir DIR`) rather than being a switch (`--json`). */
  readonly value?: boolean;
  /** May be given more than once (values collected in order). */
  readonly repeat?: boolean;
  /** Other spellings, e.g. `-o`. */
  readonly aliases?: readonly string[];
}

export interface ParsedArgs {
  readonly positional: string[];
  readonly flags: Map<string, string[]>;
}

export function parseArgs(argv: readonly string[], spec: Readonly<Record<string, FlagSpec>>): ParsedArgs {
  const byName = new Map<string, string>();
  for (const [name, s] of Object.entries(spec)) {
    byName.set(name, name);
    for (const a of s.aliases ?? []) byName.set(a, name);
  }
  const positional: string[] = [];
  const flags = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('-') && arg !== '-') {
      let name = arg;
      let inline: string | undefined;
      const eq = arg.indexOf('=');
      if (arg.startsWith('--') && eq > 0) {
        name = arg.slice(0, eq);
        inline = arg.slice(eq + 1);
      }
      const canonical = byName.get(name);
      if (canonical === undefined) throw new UsageError(`unknown option ${name}`);
      const s = spec[canonical]!;
      const list = flags.get(canonical) ?? [];
      if (list.length > 0 && !s.repeat) throw new UsageError(`${canonical} given twice`);
      if (s.value) {
        const v = inline ?? argv[++i];
        if (v === undefined) throw new UsageError(`${canonical} needs a value`);
        list.push(v);
      } else {
        if (inline !== undefined) throw new UsageError(`${canonical} takes no value`);
        list.push('');
      }
      flags.set(canonical, list);
    } else {
      positional.push(arg);
    }
  }
  return { positional, flags };
}

export function flag(args: ParsedArgs, name: string): boolean {
  return args.flags.has(name);
}

export function value(args: ParsedArgs, name: string): string | undefined {
  return args.flags.get(name)?.[0];
}

/** A numeric option: decimal or 0x-prefixed hex. */
export function numberValue(args: ParsedArgs, name: string): number | undefined {
  const v = value(args, name);
  if (v === undefined) return undefined;
  const n = /^0x[0-9a-f]+$/i.test(v) ? parseInt(v, 16) : /^\d+$/.test(v) ? parseInt(v, 10) : NaN;
  if (!Number.isSafeInteger(n))
    throw new UsageError(`${name} takes a number (decimal or 0x hex), not ${JSON.stringify(v)}`);
  return n;
}
