// `loupe`: the headless entry point. Commands and flags are a contract (DESIGN.md).
// Errors are one line on stderr and a non-zero exit: 2 for usage, 1 for anything else
// (and 3 for an export of a damaged recording that left out what it could not read);
// `loupe diff` keeps 1 for "the runs differ", as diff(1) does.
import { checkCommandArgs, parseArgs, REPEATED, SWITCH, UsageError, VALUE, type CommandSpec } from './cli/args.js';
import { demoHelp } from './cli/demo-help.js';
import { diffCommand } from './cli/diff.js';
import { exportCommand } from './cli/export.js';
import { record } from './cli/record.js';
import { reindexCommand } from './cli/reindex.js';
import { forkCommand } from './cli/fork.js';
import { replayCommand } from './cli/replay.js';
import { serve } from './cli/serve.js';

const OTLP_PUSH = { otlp: VALUE, 'otlp-json': SWITCH, 'otlp-content': SWITCH };
const SHUTDOWN = { 'upstream-timeout': VALUE, 'shutdown-grace': VALUE };

/** What each command takes. A flag another command owns (`loupe export f --db x`) is an error. */
export const COMMANDS: Record<string, CommandSpec> = {
  serve: {
    options: { port: VALUE, 'ui-port': VALUE, upstream: VALUE, db: VALUE, ...SHUTDOWN, redact: REPEATED, ...OTLP_PUSH },
    files: 0,
  },
  record: {
    options: { db: VALUE, upstream: VALUE, port: VALUE, label: VALUE, ...SHUTDOWN, redact: REPEATED, ...OTLP_PUSH },
    files: 0,
    runsCommand: true,
  },
  export: { options: { format: VALUE, 'otlp-content': SWITCH }, files: 1 },
  reindex: { options: {}, files: 1 },
  replay: {
    options: {
      run: VALUE,
      port: VALUE,
      db: VALUE,
      timing: VALUE,
      'on-miss': VALUE,
      upstream: VALUE,
      ignore: REPEATED,
    },
    files: 1,
    runsCommand: true,
  },
  fork: {
    options: { run: VALUE, at: VALUE, set: REPEATED, db: VALUE, upstream: VALUE, port: VALUE, ignore: REPEATED },
    files: 1,
    runsCommand: true,
  },
  diff: { options: { format: VALUE }, files: 3 },
  demo: {
    options: {
      scenario: VALUE,
      speed: VALUE,
      db: VALUE,
      port: VALUE,
      'ui-port': VALUE,
      redact: REPEATED,
      ...OTLP_PUSH,
    },
    files: 0,
  },
};

const HELP = `loupe: record and inspect OpenAI Responses API traffic

  loupe serve   [--port 7455] [--ui-port Q] [--upstream URL] [--db FILE] [--upstream-timeout S]
                [--redact NAME]...
                proxy + headless UI; prints {"proxy": URL, "ui": URL} when ready
  loupe record  [--db FILE] [--upstream URL] [--port P] [--label L] [--redact NAME]... -- CMD ARGS
                run CMD with OPENAI_BASE_URL pointed at a fresh proxy; exits with CMD's status
  loupe export  FILE [--format json|jsonl|har|otlp] [--otlp-content]
  loupe reindex FILE   rebuild derived tables from the raw exchanges
  loupe diff    FILE RUN_A RUN_B [--format text|json]
                two runs aligned step by step: the first divergence, what differs at each
                step, tokens, time and cost; RUN_B may be OTHER_FILE:RUN; exits 0 when the
                runs match, 1 when they differ, 2 when they cannot be compared
  loupe replay  FILE [--run R] [--port P] [--db OUT] [--timing recorded|fast] [--on-miss fail|forward]
                [--upstream URL] [--ignore POINTER]... [-- CMD ARGS]
                serve a recording as the upstream (no key, no network); with CMD, run it against
                it and exit with its status, else print {"proxy": URL}; --db OUT records the re-run
  loupe fork    FILE --run R --at STEP --set POINTER=VALUE... [--db OUT] [--upstream URL|sim] [--port P]
                [--ignore POINTER]... [-- CMD ARGS]
                re-run run R with step STEP edited (POINTER under /response/... or /request/...;
                VALUE is JSON where it parses, else a string): earlier steps from the recording,
                the rest live (sim: the built-in simulator); recorded as a new run into OUT (FILE)
  loupe demo    [--scenario NAME|all] [--speed X] [--db FILE] [--port P] [--ui-port Q] [--redact NAME]...
                no API key needed: a built-in simulator plays scripted agent runs through
                the proxy; prints {"proxy": URL, "ui": URL}; --speed 10 plays 10x faster
${demoHelp()}

  serve, record and demo take --otlp URL: push each run's spans to an OTLP/HTTP endpoint
  (protobuf; --otlp-json for JSON; headers from OTEL_EXPORTER_OTLP_HEADERS). --otlp-content
  adds message content to the spans (off by default).

  --redact NAME keeps the values of headers, query parameters and JSON keys called NAME
  (any case or separator) off the disk, beyond the names that look like credentials
  (key, token, secret, password, auth, cookie, session, signature); repeat it for more.
  --port 0 picks a free port. The default upstream is https://api.openai.com; the default
  recording is library.loupe in the user data folder (override with --db or LOUPE_DB).
  On Ctrl-C or SIGTERM, serve and record give exchanges in flight --shutdown-grace S
  seconds (default 3) to finish, then end the rest as cut short by the shutdown.
`;

export async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv, COMMANDS);
  if (args.values.version) {
    const { version } = (await import('../../package.json', { with: { type: 'json' } })).default;
    process.stdout.write(`${version}\n`);
    return 0;
  }
  if (args.values.help || args.command === null || args.command === 'help') {
    process.stdout.write(HELP);
    return args.command === null && !Object.keys(args.values).length ? 2 : 0;
  }
  checkCommandArgs(args, COMMANDS);
  switch (args.command) {
    case 'serve':
      return serve(args);
    case 'record':
      return record(args);
    case 'export':
      return exportCommand(args);
    case 'reindex':
      return reindexCommand(args);
    case 'replay':
      return replayCommand(args);
    case 'fork':
      return forkCommand(args);
    case 'diff':
      return diffCommand(args);
    case 'demo':
      // Loaded on demand: the demo's clients (@openai/agents among them) are heavy.
      return (await import('./cli/demo.js')).demoCommand(args);
    default:
      throw new UsageError(`unknown command "${args.command}"; try loupe --help`);
  }
}

export async function run(argv: string[]): Promise<void> {
  try {
    process.exitCode = await main(argv);
  } catch (err) {
    process.stderr.write(`loupe: ${(err as Error).message}\n`);
    process.exitCode = err instanceof UsageError ? 2 : 1;
  }
}
