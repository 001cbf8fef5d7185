// `loupe fork FILE --run R --at STEP --set POINTER=VALUE …`: re-runs run R of FILE with
// the item at step STEP edited. Steps before it come from the recording, the step serves
// the edited response or sends the edited request live, and everything after goes live:
// to --upstream, or to the built-in simulator with `--upstream sim` for a keyless try.
// The fork is recorded as a run of its own (label fork-<id>) into --db OUT, by default
// FILE itself; the original run is never touched.
import fs from 'node:fs';
import path from 'node:path';
import { openDb } from '../store/db.js';
import { startSimUpstream } from '../sim/index.js';
import { forkBaseUrl } from '../fork/fork-registry.js';
import { ForkPlanError, prepareFork, type PreparedFork } from '../fork/prepare-fork.js';
import { ForkEditError, parseSetArg, type ForkEdit } from '../../../shared/fork/fork-edits.js';
import { forkLabel } from '../../../shared/capture/route.js';
import { ignoreFlag, listFlag, portFlag, stringFlag, upstreamFlag, UsageError, type ParsedArgs } from './args.js';
import { startRecordingCore } from './recording-core.js';
import { serveOrRun } from './serve-or-run.js';

const USAGE =
  'loupe fork FILE --run R --at STEP --set POINTER=VALUE … [--db OUT] [--upstream URL|sim] [--ignore POINTER]… [-- CMD ARGS]';

function writable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.W_OK);
    fs.accessSync(path.dirname(path.resolve(file)), fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function stepFlag(args: ParsedArgs): number {
  const at = stringFlag(args, 'at');
  if (at === undefined) throw new UsageError(`fork needs --at STEP, the 1-based step (response) to edit: ${USAGE}`);
  const step = Number(at);
  if (!/^\d+$/.test(at) || step < 1)
    throw new UsageError(`--at must be a step number (1 for the run's first response), got "${at}"`);
  return step;
}

function editFlags(args: ParsedArgs): ForkEdit[] {
  const sets = listFlag(args, 'set');
  if (sets.length === 0) throw new UsageError(`fork needs at least one --set POINTER=VALUE: ${USAGE}`);
  try {
    return sets.map(parseSetArg);
  } catch (err) {
    if (err instanceof ForkEditError) throw new UsageError(err.message);
    throw err;
  }
}

export async function forkCommand(args: ParsedArgs): Promise<number> {
  const file = args.positionals[0];
  if (!file) throw new UsageError(`fork needs a recording file: ${USAGE}`);
  const run = stringFlag(args, 'run');
  if (!run) throw new UsageError(`fork needs --run R (loupe export ${file} lists the runs): ${USAGE}`);
  const step = stepFlag(args);
  const edits = editFlags(args);
  const upstreamArg = stringFlag(args, 'upstream');
  const upstream = upstreamArg === 'sim' ? 'sim' : upstreamFlag(args);
  const port = portFlag(args, 'port');
  const ignore = ignoreFlag(args);
  if (!fs.existsSync(file)) throw new UsageError(`no recording at ${file}`);
  const out = stringFlag(args, 'db') ?? file;
  if (out === file && !writable(file))
    throw new UsageError(`${file} is read-only; record the fork elsewhere with --db OUT`);

  return serveOrRun(args.rest, async (onClose) => {
    const source = openDb(file, { readonly: true });
    onClose(() => source.close());
    let prepared: PreparedFork;
    try {
      prepared = await prepareFork(source, { run, step, edits, ignore });
    } catch (err) {
      if (err instanceof ForkPlanError) throw new UsageError(err.message);
      throw err;
    }
    // Its ids start far from 0: the recording may have been made against a simulator too.
    const sim =
      upstream === 'sim'
        ? await startSimUpstream({ idOffset: 1_000_000 + Math.floor(Math.random() * 1_000_000_000) })
        : null;
    if (sim) onClose(() => sim.close());
    const core = await startRecordingCore(onClose, { dbPath: out, port: port ?? 0, upstream: sim?.url ?? upstream });
    const fork = core.forks.serve(source, core.db, prepared, (line) => process.stderr.write(`${line}\n`));
    const baseUrl = forkBaseUrl(core.proxy.baseUrl, fork.id);
    const live = sim ? 'the built-in simulator' : core.proxy.upstream;
    process.stderr.write(
      `loupe: fork ${fork.id} of run ${run} at step ${step}: steps before it from ${file}, then live to ${live}; recording to ${out} as run label:${forkLabel(fork.id)}\n`,
    );
    return {
      baseUrl,
      ready: { proxy: baseUrl, fork: fork.id, run: `label:${forkLabel(fork.id)}` },
      summary() {
        const { served, live: wentLive, misses } = fork.stats;
        return `loupe: fork ${fork.id}: ${served} answered from the recording, ${wentLive} live, ${misses} miss${misses === 1 ? '' : 'es'}`;
      },
    };
  });
}
