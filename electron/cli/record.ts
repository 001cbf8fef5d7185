// `loupe record -- CMD ARGS`: runs CMD with OPENAI_BASE_URL pointed at a fresh proxy on a
// free port, records everything it sends, and exits with CMD's own status so it can wrap
// a test suite in CI.
import { spawn } from 'node:child_process';
import { startCore } from '../core.js';
import { portFlag, secondsFlag, stringFlag, UsageError, type ParsedArgs } from './args.js';
import { defaultLibraryPath } from './default-db.js';

export async function record(args: ParsedArgs): Promise<number> {
  if (!args.rest.length) throw new UsageError('record needs a command after `--`, e.g. loupe record -- node agent.js');
  const dbPath = stringFlag(args, 'db') ?? defaultLibraryPath();
  const core = await startCore({
    dbPath,
    port: portFlag(args, 'port') ?? 0,
    upstream: stringFlag(args, 'upstream'),
    upstreamTimeoutMs: secondsFlag(args, 'upstream-timeout'),
  });
  const label = stringFlag(args, 'label');
  const baseUrl = label ? core.proxy.baseUrl.replace(/\/v1$/, `/s/${encodeURIComponent(label)}/v1`) : core.proxy.baseUrl;
  process.stderr.write(`loupe: recording ${args.rest.join(' ')} to ${dbPath} (OPENAI_BASE_URL=${baseUrl})\n`);

  const [cmd, ...cmdArgs] = args.rest as [string, ...string[]];
  const child = spawn(cmd, cmdArgs, { stdio: 'inherit', env: { ...process.env, OPENAI_BASE_URL: baseUrl } });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  const status = await new Promise<number>((resolve) => {
    child.once('error', (err) => {
      process.stderr.write(`loupe: cannot run ${cmd}: ${err.message}\n`);
      resolve(127);
    });
    child.once('exit', (code, signal) => resolve(code ?? 128 + signalNumber(signal)));
  });
  process.off('SIGINT', forward);
  process.off('SIGTERM', forward);
  await core.close();
  const count = core.recorder.health.exchanges;
  process.stderr.write(`loupe: recorded ${count} exchange${count === 1 ? '' : 's'} to ${dbPath}\n`);
  return status;
}

function signalNumber(signal: NodeJS.Signals | null): number {
  const numbers: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
  return (signal && numbers[signal]) ?? 1;
}
