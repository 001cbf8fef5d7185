// Argument parsing for the `loupe` CLI. Deliberately tiny and strict: unknown flags and
// missing values are errors with a one-line message, never silently ignored.

import { checkRedactName } from '../../../shared/capture/secret-names.js';
import { parseUpstream } from '../../../shared/capture/upstream-url.js';

export class UsageError extends Error {}

export interface ParsedArgs {
  command: string | null;
  positionals: string[];
  /** The last value of each flag given. */
  flags: Map<string, string | true>;
  /** Every value of each value flag, in order, for flags that may repeat (`--redact A --redact B`). */
  repeated: Map<string, string[]>;
  /** Everything after `--`, for `loupe record -- CMD ARGS`. */
  rest: string[];
}

/** `valueFlags` take a value (`--port 7455` or `--port=7455`); `boolFlags` do not. */
export function parseArgs(argv: string[], valueFlags: Set<string>, boolFlags: Set<string>): ParsedArgs {
  const out: ParsedArgs = { command: null, positionals: [], flags: new Map(), repeated: new Map(), rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      out.rest = argv.slice(i + 1);
      break;
    }
    if (arg.startsWith('--') || (arg.startsWith('-') && arg.length === 2 && arg !== '-')) {
      const eq = arg.indexOf('=');
      const name = arg.startsWith('--') ? (eq >= 0 ? arg.slice(2, eq) : arg.slice(2)) : arg.slice(1);
      if (boolFlags.has(name)) {
        out.flags.set(name, true);
      } else if (valueFlags.has(name)) {
        const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
        if (value === undefined || value === '') throw new UsageError(`--${name} needs a value`);
        out.flags.set(name, value);
        out.repeated.set(name, [...(out.repeated.get(name) ?? []), value]);
      } else {
        throw new UsageError(`unknown option ${arg}`);
      }
    } else if (out.command === null) {
      out.command = arg;
    } else {
      out.positionals.push(arg);
    }
  }
  return out;
}

export function portFlag(args: ParsedArgs, name: string): number | undefined {
  const v = args.flags.get(name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v === true || !Number.isInteger(n) || n < 0 || n > 65535)
    throw new UsageError(`--${name} must be a port number (0-65535), got "${v}"`);
  return n;
}

/** Every value given for a flag that may repeat, in order. */
export function listFlag(args: ParsedArgs, name: string): string[] {
  return args.repeated.get(name) ?? [];
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

export function secondsFlag(args: ParsedArgs, name: string): number | undefined {
  const v = stringFlag(args, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} must be a positive number of seconds, got "${v}"`);
  return n * 1000;
}

/**
 * --upstream, checked before anything starts: a bad URL is a usage error, not a failure after the recording was opened.
 */
export function upstreamFlag(args: ParsedArgs): string | undefined {
  const v = stringFlag(args, 'upstream');
  if (v === undefined) return undefined;
  try {
    parseUpstream(v);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  return v;
}

/** --otlp URL with its switches, checked before anything starts. */
export function otlpFlags(args: ParsedArgs): { url: string; json: boolean; content: boolean } | undefined {
  const url = stringFlag(args, 'otlp');
  if (url === undefined) {
    for (const name of ['otlp-json', 'otlp-content'])
      if (args.flags.has(name)) throw new UsageError(`--${name} needs --otlp URL`);
    return undefined;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--otlp needs an http(s) URL such as http://127.0.0.1:4318/v1/traces, got "${url}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new UsageError(`--otlp needs an http(s) URL, got "${url}"`);
  return { url, json: args.flags.has('otlp-json'), content: args.flags.has('otlp-content') };
}

/** Every `--redact NAME`: header, query parameter or JSON key names to keep off the disk beyond the built-in rule. */
export function redactFlag(args: ParsedArgs): string[] {
  const names = listFlag(args, 'redact');
  for (const name of names) {
    const problem = checkRedactName(name);
    if (problem) throw new UsageError(`--redact: ${problem}; give one like --redact x-my-key`);
  }
  return names;
}
