// `loupe serve`: proxy + headless UI until SIGINT/SIGTERM, then a clean shutdown with
// everything flushed. The one JSON ready line on stdout is a contract (DESIGN.md); all
// human-facing messages go to stderr so scripts can read stdout safely.
import { startCore } from '../core.js';
import { startHeadlessServer } from '../headless/server.js';
import { startService } from '../service/service-thread.js';
import { demoStarter } from '../sim/demo/demo-starter.js';
import { forkMaker } from '../fork/fork-maker.js';
import { otlpFlags, portFlag, redactFlag, secondsFlag, stringFlag, upstreamFlag, type ParsedArgs } from './args.js';
import { defaultLibraryPath } from './default-db.js';
import { DEFAULT_PROXY_PORT } from '../capture/proxy-server.js';
import { untilShutdownSignal } from './shutdown-signal.js';
import { startOtlpPush } from '../otlp/otlp-push.js';

export async function serve(args: ParsedArgs): Promise<number> {
  // Every flag is checked before the recording is opened (and, on a first run, created).
  const dbPath = stringFlag(args, 'db') ?? defaultLibraryPath();
  const uiPort = portFlag(args, 'ui-port') ?? 0;
  const otlp = otlpFlags(args);
  const core = await startCore({
    dbPath,
    port: portFlag(args, 'port') ?? DEFAULT_PROXY_PORT,
    upstream: upstreamFlag(args),
    upstreamTimeoutMs: secondsFlag(args, 'upstream-timeout'),
    shutdownGraceMs: secondsFlag(args, 'shutdown-grace'),
    redact: redactFlag(args),
  });
  const push = otlp ? startOtlpPush(dbPath, core.sessionStart, otlp) : null;
  // The API service runs in a thread of its own, off the relay's (service-thread.ts).
  let service;
  let ui;
  try {
    service = await startService(core, { startDemo: demoStarter(core), makeFork: forkMaker(core) });
    ui = await startHeadlessServer({ api: service, port: uiPort });
  } catch (err) {
    await service?.close();
    await core.close();
    await push?.close();
    throw err;
  }
  // Listening before the ready line: whoever reads it may signal at once, and a SIGINT that
  // came before the listener would end the process by Node's default, unflushed. (The write
  // wakes the reader, which can signal before this process runs again.)
  // Not SIGHUP: a listener would undo `nohup loupe serve`. A hangup ends the process as it
  // always did, and the next writer puts the recording right (interrupted-session.ts).
  const signalled = untilShutdownSignal();
  process.stdout.write(`${JSON.stringify({ proxy: core.proxy.baseUrl, ui: ui.url })}\n`);
  process.stderr.write(
    `loupe: recording to ${dbPath}\nloupe: forwarding to ${core.proxy.upstream}${core.proxy.via ? ` via ${core.proxy.via}` : ''}\n` +
      `loupe: point clients at it with OPENAI_BASE_URL=${core.proxy.baseUrl}\n`,
  );
  await signalled;
  process.stderr.write('loupe: shutting down, flushing the recording…\n');
  await ui.close();
  await service.close();
  await core.close();
  // Last: its final pass reads what the core's close derived.
  await push?.close();
  return 0;
}
