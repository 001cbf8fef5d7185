// `loupe record -- CMD ARGS`: runs CMD with OPENAI_BASE_URL pointed at a fresh proxy on a
// free port, records everything it sends, and exits with CMD's own status so it can wrap
// a test suite in CI.
import { startCore } from '../core.js';
import {
  otlpFlags,
  portFlag,
  redactFlag,
  secondsFlag,
  stringFlag,
  upstreamFlag,
  UsageError,
  type ParsedArgs,
} from './args.js';
import { defaultLibraryPath } from './default-db.js';
import { inheritedUpstream } from './record-env.js';
import { runChild } from './run-child.js';
import { startOtlpPush } from '../otlp/otlp-push.js';

export async function record(args: ParsedArgs): Promise<number> {
  if (!args.rest.length) throw new UsageError('record needs a command after `--`, e.g. loupe record -- node agent.js');
  const dbPath = stringFlag(args, 'db') ?? defaultLibraryPath();
  const given = upstreamFlag(args);
  const inherited = given ? undefined : inheritedUpstream(process.env);
  const otlp = otlpFlags(args);
  const core = await startCore({
    dbPath,
    port: portFlag(args, 'port') ?? 0,
    upstream: given ?? inherited,
    upstreamTimeoutMs: secondsFlag(args, 'upstream-timeout'),
    shutdownGraceMs: secondsFlag(args, 'shutdown-grace'),
    redact: redactFlag(args),
  });
  const push = otlp ? startOtlpPush(dbPath, core.sessionStart, otlp) : null;
  const label = stringFlag(args, 'label');
  const baseUrl = label
    ? core.proxy.baseUrl.replace(/\/v1$/, `/s/${encodeURIComponent(label)}/v1`)
    : core.proxy.baseUrl;
  const [cmd, ...cmdArgs] = args.rest as [string, ...string[]];
  // The program's name only: its arguments may hold a key the shell has already expanded
  // (`curl -H "Authorization: Bearer $OPENAI_API_KEY"`), and stderr ends up in CI logs.
  process.stderr.write(
    `loupe: recording ${cmd}${cmdArgs.length ? ` (and its ${cmdArgs.length} argument${cmdArgs.length === 1 ? '' : 's'})` : ''} to ${dbPath}\n` +
      `loupe: forwarding to ${core.proxy.upstream}${inherited ? ' (your OPENAI_BASE_URL)' : ''}; OPENAI_BASE_URL=${baseUrl}\n`,
  );

  const child = runChild(cmd, cmdArgs, baseUrl);
  const status = await child.status;
  // Still listening while the recording is flushed: a signal now (a SIGTERM sent to every
  // process of a group or unit) would otherwise end this process in the middle of it.
  await core.close();
  await push?.close();
  child.release();
  const count = core.recorder.health.exchanges;
  process.stderr.write(`loupe: recorded ${count} exchange${count === 1 ? '' : 's'} to ${dbPath}\n`);
  return status;
}
