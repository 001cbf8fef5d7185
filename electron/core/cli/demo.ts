// `loupe demo`: watch an agent without an API key. Starts the simulator in-process as the
// upstream, a Loupe core recording into --db (the default library unless told otherwise)
// and the headless UI, prints the same ready line as `serve`, then plays the scenarios
// live through the real proxy. The UI stays up after the demo until SIGINT/SIGTERM.
import { startCore } from '../core.js';
import { DEMO_SCENARIOS, isDemoScenario, runDemo, type DemoScenario } from '../sim/demo/index.js';
import { startHeadlessServer } from '../headless/server.js';
import { startService } from '../service/service-thread.js';
import { demoStarter } from '../sim/demo/demo-starter.js';
import { forkMaker } from '../fork/fork-maker.js';
import { startSimUpstream } from '../sim/index.js';
import { startOtlpPush } from '../otlp/otlp-push.js';
import { otlpFlags, portFlag, redactFlag, stringFlag, UsageError, type ParsedArgs } from './args.js';
import { defaultLibraryPath } from './default-db.js';
import { untilShutdownSignal } from './shutdown-signal.js';

function scenarioFlag(args: ParsedArgs): DemoScenario | 'all' {
  const value = stringFlag(args, 'scenario') ?? 'all';
  if (value === 'all' || isDemoScenario(value)) return value;
  throw new UsageError(`unknown --scenario "${value}"; use all or one of ${DEMO_SCENARIOS.join(', ')}`);
}

function speedFlag(args: ParsedArgs): number {
  const value = stringFlag(args, 'speed');
  if (value === undefined) return 1;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError(`--speed must be a positive number (1 = real time), got "${value}"`);
  return n;
}

export async function demoCommand(args: ParsedArgs): Promise<number> {
  const scenario = scenarioFlag(args);
  const speed = speedFlag(args);
  const dbPath = stringFlag(args, 'db') ?? defaultLibraryPath();
  const otlp = otlpFlags(args);
  const redact = redactFlag(args);
  const sim = await startSimUpstream();
  const stops: Array<() => Promise<void>> = [() => sim.close()];
  const stop = async () => {
    for (const close of stops.reverse()) await close();
  };
  let failed = false;
  let stopping = false;
  try {
    const core = await startCore({ dbPath, port: portFlag(args, 'port') ?? 0, upstream: sim.url, redact });
    const push = otlp ? startOtlpPush(core.dbPath, core.sessionStart, otlp) : null;
    // The push goes last: its final pass reads what the core's close derived.
    stops.push(async () => {
      await core.close();
      await push?.close();
    });
    const service = await startService(core, { startDemo: demoStarter(core), makeFork: forkMaker(core) });
    stops.push(() => service.close());
    const ui = await startHeadlessServer({ api: service, port: portFlag(args, 'ui-port') ?? 0 });
    stops.push(() => ui.close());
    // Listening before the ready line, as serve does: whoever reads it may signal at once.
    const signalled = untilShutdownSignal();
    process.stdout.write(`${JSON.stringify({ proxy: core.proxy.baseUrl, ui: ui.url })}\n`);
    process.stderr.write(`loupe demo: recording to ${dbPath}; open ${ui.url} to watch\n`);
    const played = runDemo({
      baseURL: core.proxy.baseUrl,
      scenario,
      speed,
      onProgress: ({ scenario: name, phase, runs }) => {
        const detail = runs ? ` (${runs.map((r) => `${r.label}: ${r.responseIds.length} responses`).join(', ')})` : '';
        process.stderr.write(`loupe demo: ${name} ${phase}${detail}\n`);
      },
    }).then(
      () => process.stderr.write('loupe demo: finished; the UI stays up until Ctrl-C\n'),
      (err: unknown) => {
        // Shutting down mid-demo cuts its requests short; that is not a failure to report.
        if (stopping) return;
        failed = true;
        process.stderr.write(`loupe demo: FAILED: ${(err as Error).message}\n`);
      },
    );
    await Promise.race([signalled, played.then(() => signalled)]);
    stopping = true;
    process.stderr.write('loupe demo: shutting down, flushing the recording…\n');
  } finally {
    await stop();
  }
  return failed ? 1 : 0;
}
