// `loupe record -- CMD ARGS`: runs CMD with OPENAI_BASE_URL pointed at a fresh proxy on a
// free port, records everything it sends, and exits with CMD's own status so it can wrap
// a test suite in CI.
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
import { startRecordingCore } from './recording-core.js';
import { serveOrRun } from './serve-or-run.js';

export async function record(args: ParsedArgs): Promise<number> {
  if (!args.rest.length) throw new UsageError('record needs a command after `--`, e.g. loupe record -- node agent.js');
  const dbPath = stringFlag(args, 'db') ?? defaultLibraryPath();
  const given = upstreamFlag(args);
  const inherited = given ? undefined : inheritedUpstream(process.env);
  const otlp = otlpFlags(args);
  const options = {
    dbPath,
    port: portFlag(args, 'port') ?? 0,
    upstream: given ?? inherited,
    upstreamTimeoutMs: secondsFlag(args, 'upstream-timeout'),
    shutdownGraceMs: secondsFlag(args, 'shutdown-grace'),
    redact: redactFlag(args),
  };
  const label = stringFlag(args, 'label');
  const [cmd, ...cmdArgs] = args.rest;
  return serveOrRun(args.rest, async (onClose) => {
    const core = await startRecordingCore(onClose, options, otlp);
    const baseUrl = label
      ? core.proxy.baseUrl.replace(/\/v1$/, `/s/${encodeURIComponent(label)}/v1`)
      : core.proxy.baseUrl;
    // The program's name only: its arguments may hold a key the shell has already expanded
    // (`curl -H "Authorization: Bearer $OPENAI_API_KEY"`), and stderr ends up in CI logs.
    process.stderr.write(
      `loupe: recording ${cmd}${cmdArgs.length ? ` (and its ${cmdArgs.length} argument${cmdArgs.length === 1 ? '' : 's'})` : ''} to ${dbPath}\n` +
        `loupe: forwarding to ${core.proxy.upstream}${inherited ? ' (your OPENAI_BASE_URL)' : ''}; OPENAI_BASE_URL=${baseUrl}\n`,
    );
    return {
      baseUrl,
      ready: { proxy: baseUrl },
      summary() {
        const count = core.recorder.health.exchanges;
        return `loupe: recorded ${count} exchange${count === 1 ? '' : 's'} to ${dbPath}`;
      },
    };
  });
}
