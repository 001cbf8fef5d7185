import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../cli.js';
import {
  checkCommandArgs,
  listFlag,
  parseArgs,
  portFlag,
  REPEATED,
  stringFlag,
  SWITCH,
  UsageError,
  VALUE,
  type CommandSpec,
} from './args.js';

const SPECS: Record<string, CommandSpec> = {
  record: { options: { port: VALUE, db: VALUE, redact: REPEATED }, files: 0, runsCommand: true },
  export: { options: { format: VALUE, 'otlp-content': SWITCH }, files: 1 },
};
const parse = (argv: string[]) => {
  const args = parseArgs(argv, SPECS);
  checkCommandArgs(args, SPECS);
  return args;
};

describe('parseArgs', () => {
  it('parses a command, flags in both spellings, repeated flags, and the rest after --', () => {
    const a = parse([
      'record',
      '--port=0',
      '--db',
      'x.loupe',
      '--redact',
      'a',
      '--redact=b',
      '--',
      'node',
      '--port',
      '1',
    ]);
    expect(a.command).toBe('record');
    expect(portFlag(a, 'port')).toBe(0);
    expect(stringFlag(a, 'db')).toBe('x.loupe');
    expect(listFlag(a, 'redact')).toEqual(['a', 'b']);
    expect(a.rest).toEqual(['node', '--port', '1']);
  });

  it('takes the word after a value flag as its value, even one that starts with a dash', () => {
    expect(stringFlag(parse(['record', '--db', '--x.loupe', '--', 'node']), 'db')).toBe('--x.loupe');
  });

  it('knows -h and --help, and --version, without a command', () => {
    expect(parseArgs(['-h'], SPECS).values.help).toBe(true);
    expect(parseArgs(['export', 'f', '--help'], SPECS)).toMatchObject({ command: 'export', values: { help: true } });
    expect(parseArgs(['--version'], SPECS)).toMatchObject({ command: null, values: { version: true } });
  });

  it('refuses unknown flags, missing values, values for switches and bad ports with one-line messages', () => {
    const refusals: Array<[string[], string | RegExp]> = [
      [['record', '--nope'], 'unknown option --nope'],
      [['record', '-x'], 'unknown option -x'],
      [['record', '--db'], '--db needs a value'],
      [['record', '--db='], '--db needs a value'],
      [['export', 'f', '--otlp-content=yes'], '--otlp-content takes no value'],
      [['record', '--port', '99999', '--', 'node'], /port number/],
    ];
    for (const [argv, message] of refusals) {
      expect(() => portFlag(parse(argv), 'port'), argv.join(' ')).toThrow(message);
      expect(() => portFlag(parse(argv), 'port')).toThrow(UsageError);
    }
  });

  it("refuses another command's flags, extra words, an unknown command and a CMD where none runs", () => {
    expect(() => parse(['export', 'f', '--db', 'x'])).toThrow('--db does not apply to loupe export; try loupe --help');
    expect(() => parse(['export', 'f', 'g'])).toThrow('unexpected argument "g" for loupe export');
    expect(() => parse(['frobnicate'])).toThrow('unknown command "frobnicate"');
    expect(() => parse(['toString'])).toThrow('unknown command "toString"');
    expect(() => parse(['export', 'f', '--', 'node'])).toThrow('loupe export takes no command after `--`');
  });
});

describe("the CLI's command table", () => {
  it('gives each flag one meaning across commands, so parsing with all of them known is safe', () => {
    const seen = new Map<string, string>();
    for (const [command, spec] of Object.entries(COMMANDS))
      for (const [name, option] of Object.entries(spec.options)) {
        const meaning = JSON.stringify(option);
        expect(seen.get(name) ?? meaning, `--${name} in ${command}`).toBe(meaning);
        seen.set(name, meaning);
      }
  });
});
