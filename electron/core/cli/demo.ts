// `loupe demo`: watch an agent without an API key. Starts the simulator in-process as the
// upstream, a Loupe core recording into --db (the default library unless told otherwise)
// and the headless UI, prints the same ready line as `serve`, then plays the scenarios
// live through the real proxy. The UI stays up after the demo until SIGINT/SIGTERM.
import { DEMO_SCENARIOS, isDemoScenario, runDemo, type DemoScenario } from '../sim/demo/index.js';
import { startSimUpstream } from '../sim/index.js';
import { otlpFlags, portFlag, redactFlag, stringFlag, UsageError, type ParsedArgs } from './args.js';
import { defaultLibraryPath } from './default-db.js';
import { startHeadlessUi } from './headless-ui.js';
import { startRecordingCore } from './recording-core.js';
import { serveOrRun } from './serve-or-run.js';

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
  const port = portFlag(args, 'port') ?? 0;
  const uiPort = portFlag(args, 'ui-port') ?? 0;
  const otlp = otlpFlags(args);
  const redact = redactFlag(args);
  return serveOrRun(args.rest, async (onClose) => {
    const sim = await startSimUpstream();
    onClose(() => sim.close());
    const core = await startRecordingCore(onClose, { dbPath, port, upstream: sim.url, redact }, otlp);
    const ui = await startHeadlessUi(onClose, core, uiPort);
    let failed = false;
    let stopping = false;
    return {
      baseUrl: core.proxy.baseUrl,
      ready: { proxy: core.proxy.baseUrl, ui },
      onReady() {
        process.stderr.write(`loupe demo: recording to ${dbPath}; open ${ui} to watch\n`);
        void runDemo({
          baseURL: core.proxy.baseUrl,
          scenario,
          speed,
          onProgress: ({ scenario: name, phase, runs }) => {
            const detail = runs
              ? ` (${runs.map((r) => `${r.label}: ${r.responseIds.length} responses`).join(', ')})`
              : '';
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
      },
      onStop() {
        stopping = true;
        process.stderr.write('loupe demo: shutting down, flushing the recording…\n');
      },
      status: () => (failed ? 1 : 0),
    };
  });
}
