// `loupe replay FILE`: serves a recording as the upstream, so an unchanged app re-runs
// against it with no key, no cost and no nondeterminism. FILE is only read. With `--db OUT`
// the replay server sits behind a normal Loupe core recording into OUT, so the re-run is
// recorded exactly as a live one would be (the core cannot tell the two upstreams apart).
import path from 'node:path';
import { openDb } from '../store/db.js';
import { indexRecording } from '../replay/recording-index.js';
import { startReplayServer, type OnMiss } from '../replay/replay-server.js';
import type { Timing } from '../replay/send-answer.js';
import { ReplayMatcher } from '../../../shared/replay/matcher.js';
import { ignoreList } from '../../../shared/replay/normalize.js';
import { ignoreFlag, portFlag, stringFlag, upstreamFlag, UsageError, type ParsedArgs } from './args.js';
import { startRecordingCore } from './recording-core.js';
import { serveOrRun } from './serve-or-run.js';

function choice<T extends string>(args: ParsedArgs, name: string, allowed: readonly T[], fallback: T): T {
  const v = stringFlag(args, name) ?? fallback;
  if (!(allowed as readonly string[]).includes(v))
    throw new UsageError(`--${name} must be ${allowed.join(' or ')}, got "${v}"`);
  return v as T;
}

export async function replayCommand(args: ParsedArgs): Promise<number> {
  const file = args.positionals[0];
  if (!file) throw new UsageError('replay needs a recording file: loupe replay FILE [-- CMD ARGS]');
  const timing = choice<Timing>(args, 'timing', ['fast', 'recorded'], 'fast');
  const onMiss = choice<OnMiss>(args, 'on-miss', ['fail', 'forward'], 'fail');
  const upstream = upstreamFlag(args);
  if (upstream && onMiss !== 'forward')
    throw new UsageError('--upstream is where misses go; it needs --on-miss forward');
  const port = portFlag(args, 'port');
  const out = stringFlag(args, 'db');
  if (out !== undefined && path.resolve(out) === path.resolve(file))
    throw new UsageError(`--db must name another file than ${file}: replay only reads the recording it serves`);
  const ignore = ignoreList(ignoreFlag(args));

  return serveOrRun(args.rest, async (onClose) => {
    const db = openDb(file, { readonly: true });
    onClose(() => db.close());
    const index = await indexRecording(db, ignore);
    const run = stringFlag(args, 'run') ?? null;
    if (run !== null && !index.runs.has(run))
      throw new UsageError(`no run "${run}" in ${file}; loupe export ${file} lists the runs`);
    const server = await startReplayServer({
      db,
      matcher: new ReplayMatcher(index.entries, run),
      ignore,
      timing,
      onMiss,
      upstream,
      port: out ? 0 : port,
    });
    onClose(() => server.close());
    // Closed before the server: it lets exchanges in flight finish against it.
    const core = out ? await startRecordingCore(onClose, { dbPath: out, port: port ?? 0, upstream: server.url }) : null;
    const baseUrl = core ? core.proxy.baseUrl : `${server.url}/v1`;
    process.stderr.write(
      `loupe: replaying ${file} (${index.entries.length} exchanges${run ? `, run ${run}` : ''}, timing ${timing}, misses ${onMiss === 'forward' ? `forwarded to ${upstream ?? 'https://api.openai.com'}` : 'fail'})` +
        `${out ? `; recording to ${out}` : ''}\n`,
    );
    return {
      baseUrl,
      ready: { proxy: baseUrl },
      summary() {
        const { served, misses, forwarded } = server.stats;
        return `loupe: replayed ${served} exchange${served === 1 ? '' : 's'}, ${misses} miss${misses === 1 ? '' : 'es'}${forwarded ? `, ${forwarded} forwarded live` : ''}`;
      },
    };
  });
}
