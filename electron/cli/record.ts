// `loupe record -- CMD ARGS`: runs CMD with OPENAI_BASE_URL pointed at a fresh proxy on a
// free port, records everything it sends, and exits with CMD's own status so it can wrap
// a test suite in CI.
import { spawn } from 'node:child_process';
import { startCore } from '../core.js';
import { otlpFlags, portFlag, redactFlag, secondsFlag, stringFlag, upstreamFlag, UsageError, type ParsedArgs } from './args.js';
import { defaultLibraryPath } from './default-db.js';
import { exitStatusOf } from './exit-status.js';
import { inheritedUpstream, withLoopbackNoProxy } from './record-env.js';
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
  const baseUrl = label ? core.proxy.baseUrl.replace(/\/v1$/, `/s/${encodeURIComponent(label)}/v1`) : core.proxy.baseUrl;
  const [cmd, ...cmdArgs] = args.rest as [string, ...string[]];
  // The program's name only: its arguments may hold a key the shell has already expanded
  // (`curl -H "Authorization: Bearer $OPENAI_API_KEY"`), and stderr ends up in CI logs.
  process.stderr.write(
    `loupe: recording ${cmd}${cmdArgs.length ? ` (and its ${cmdArgs.length} argument${cmdArgs.length === 1 ? '' : 's'})` : ''} to ${dbPath}\n` +
      `loupe: forwarding to ${core.proxy.upstream}${inherited ? ' (your OPENAI_BASE_URL)' : ''}; OPENAI_BASE_URL=${baseUrl}\n`,
  );

  const child = spawn(cmd, cmdArgs, { stdio: 'inherit', env: withLoopbackNoProxy({ ...process.env, OPENAI_BASE_URL: baseUrl }) });
  // SIGTERM is usually sent to this process alone, so it is passed on. Ctrl-C and a hangup
  // are not: the terminal sends SIGINT and SIGHUP to the whole foreground group, CMD
  // included, and a second one could cut short CMD's own clean-up (Python's, for one).
  // Loupe keeps recording until CMD exits, whatever CMD makes of them (under nohup, it
  // ignores the hangup too).
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  const ignore = () => {};
  process.on('SIGINT', ignore);
  process.on('SIGHUP', ignore);
  process.on('SIGTERM', forward);
  const status = await new Promise<number>((resolve) => {
    child.once('error', (err) => {
      process.stderr.write(`loupe: cannot run ${cmd}: ${err.message}\n`);
      resolve(127);
    });
    child.once('exit', (code, signal) => resolve(code ?? exitStatusOf(signal)));
  });
  // Still listening while the recording is flushed: a signal now (a SIGTERM sent to every
  // process of a group or unit) would otherwise end this process in the middle of it.
  await core.close();
  await push?.close();
  process.off('SIGINT', ignore);
  process.off('SIGHUP', ignore);
  process.off('SIGTERM', forward);
  const count = core.recorder.health.exchanges;
  process.stderr.write(`loupe: recorded ${count} exchange${count === 1 ? '' : 's'} to ${dbPath}\n`);
  return status;
}
