// `loupe serve`: proxy + headless UI until SIGINT/SIGTERM, then a clean shutdown with
// everything flushed. The one JSON ready line on stdout is a contract (DESIGN.md); all
// human-facing messages go to stderr so scripts can read stdout safely.
// Not SIGHUP: a listener would undo `nohup loupe serve`. A hangup ends the process as it
// always did, and the next writer puts the recording right (interrupted-session.ts).
import { otlpFlags, portFlag, redactFlag, secondsFlag, stringFlag, upstreamFlag, type ParsedArgs } from './args.js';
import { defaultLibraryPath } from './default-db.js';
import { DEFAULT_PROXY_PORT } from '../capture/proxy-server.js';
import { startHeadlessUi } from './headless-ui.js';
import { startRecordingCore } from './recording-core.js';
import { serveOrRun } from './serve-or-run.js';

export async function serve(args: ParsedArgs): Promise<number> {
  // Every flag is checked before the recording is opened (and, on a first run, created).
  const dbPath = stringFlag(args, 'db') ?? defaultLibraryPath();
  const uiPort = portFlag(args, 'ui-port') ?? 0;
  const otlp = otlpFlags(args);
  const options = {
    dbPath,
    port: portFlag(args, 'port') ?? DEFAULT_PROXY_PORT,
    upstream: upstreamFlag(args),
    upstreamTimeoutMs: secondsFlag(args, 'upstream-timeout'),
    shutdownGraceMs: secondsFlag(args, 'shutdown-grace'),
    redact: redactFlag(args),
  };
  return serveOrRun(args.rest, async (onClose) => {
    const core = await startRecordingCore(onClose, options, otlp);
    const ui = await startHeadlessUi(onClose, core, uiPort);
    const { baseUrl, upstream, via } = core.proxy;
    return {
      baseUrl,
      ready: { proxy: baseUrl, ui },
      onReady: () =>
        process.stderr.write(
          `loupe: recording to ${dbPath}\nloupe: forwarding to ${upstream}${via ? ` via ${via}` : ''}\n` +
            `loupe: point clients at it with OPENAI_BASE_URL=${baseUrl}\n`,
        ),
      onStop: () => process.stderr.write('loupe: shutting down, flushing the recording…\n'),
    };
  });
}
