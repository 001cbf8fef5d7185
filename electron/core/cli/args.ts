// Argument parsing for the `loupe` CLI: node:util's parseArgs splits the words, and the
// checks here keep it strict. Unknown flags, flags of another command, missing values and
// extra words are errors with a one-line message, never silently ignored.
import { parseArgs as splitArgs, type ParseArgsConfig } from 'node:util';
import { checkRedactName } from '../../../shared/capture/secret-names.js';
import { parseUpstream } from '../../../shared/capture/upstream-url.js';
import { ignoreList } from '../../../shared/replay/normalize.js';

export class UsageError extends Error {}

export type Options = NonNullable<ParseArgsConfig['options']>;

/** What a command takes: its flags, how many FILE arguments, and whether a CMD after `--`. */
export interface CommandSpec {
  options: Options;
  files: number;
  runsCommand?: boolean;
}

/** A flag that takes a value (`--port 7455` or `--port=7455`). */
export const VALUE = { type: 'string' } as const;
/** A value flag that may repeat (`--redact A --redact B`), kept in order. */
export const REPEATED = { type: 'string', multiple: true } as const;
/** A flag that takes no value. */
export const SWITCH = { type: 'boolean' } as const;

/** Valid with every command and without one. */
const GLOBAL: Options = { help: { type: 'boolean', short: 'h' }, version: SWITCH };

export interface ParsedArgs {
  command: string | null;
  positionals: string[];
  /** The value of each flag given: the last one, or every one of a REPEATED flag. */
  values: Record<string, string | boolean | string[] | undefined>;
  /** Everything after `--`, for `loupe record -- CMD ARGS`. */
  rest: string[];
}

/** Splits argv with every command's flags known, so a value is never taken for a word. */
export function parseArgs(argv: string[], commands: Record<string, CommandSpec>): ParsedArgs {
  const options: Options = Object.assign({}, ...Object.values(commands).map((c) => c.options), GLOBAL);
  const { values, tokens } = splitArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true });
  const words: string[] = [];
  let rest: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'option-terminator') {
      rest = argv.slice(token.index + 1);
      break;
    }
    if (token.kind === 'positional') {
      words.push(token.value);
      continue;
    }
    const type = options[token.name]?.type;
    if (type === undefined) throw new UsageError(`unknown option ${token.rawName}`);
    if (type === 'string' && !token.value) throw new UsageError(`--${token.name} needs a value`);
    if (type === 'boolean' && token.value !== undefined) throw new UsageError(`${token.rawName} takes no value`);
  }
  const [command = null, ...positionals] = words;
  return { command, positionals, values, rest };
}

/** Refuses what the command does not take: the user meant it to do something. */
export function checkCommandArgs(args: ParsedArgs, commands: Record<string, CommandSpec>): CommandSpec {
  const command = args.command!;
  const spec = Object.hasOwn(commands, command) ? commands[command] : undefined;
  if (!spec) throw new UsageError(`unknown command "${command}"; try loupe --help`);
  for (const name of Object.keys(args.values)) {
    if (!Object.hasOwn(spec.options, name) && !Object.hasOwn(GLOBAL, name))
      throw new UsageError(`--${name} does not apply to loupe ${command}; try loupe --help`);
  }
  if (args.positionals.length > spec.files)
    throw new UsageError(
      `unexpected argument "${args.positionals[spec.files]}" for loupe ${command}; try loupe --help`,
    );
  if (args.rest.length && !spec.runsCommand)
    throw new UsageError(`loupe ${command} takes no command after \`--\`; did you mean loupe record?`);
  return spec;
}

export function portFlag(args: ParsedArgs, name: string): number | undefined {
  const v = stringFlag(args, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new UsageError(`--${name} must be a port number (0-65535), got "${v}"`);
  return n;
}

/** Every value given for a flag that may repeat, in order. */
export function listFlag(args: ParsedArgs, name: string): string[] {
  const v = args.values[name];
  return Array.isArray(v) ? v : [];
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.values[name];
  return typeof v === 'string' ? v : undefined;
}

export function switchFlag(args: ParsedArgs, name: string): boolean {
  return args.values[name] === true;
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

/** Every `--ignore POINTER` of replay and fork, checked as JSON pointers before anything starts. */
export function ignoreFlag(args: ParsedArgs): string[] {
  const pointers = listFlag(args, 'ignore');
  try {
    ignoreList(pointers);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  return pointers;
}

/** --otlp URL with its switches, checked before anything starts. */
export function otlpFlags(args: ParsedArgs): { url: string; json: boolean; content: boolean } | undefined {
  const url = stringFlag(args, 'otlp');
  if (url === undefined) {
    for (const name of ['otlp-json', 'otlp-content'])
      if (switchFlag(args, name)) throw new UsageError(`--${name} needs --otlp URL`);
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
  return { url, json: switchFlag(args, 'otlp-json'), content: switchFlag(args, 'otlp-content') };
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
