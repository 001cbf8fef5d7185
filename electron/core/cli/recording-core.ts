// The core a long-running command records through, with its `--otlp` push when asked for,
// registered to close as one: the core first (exchanges in flight end, the last ones are
// derived, the store closes), then the push, whose final pass reads what that close
// derived. Closed the other way round, the runs still streaming at a shutdown would be
// pushed as they stood, or not at all.
import { startCore, type Core, type CoreOptions } from '../core.js';
import { startOtlpPush, type OtlpPushOptions } from '../otlp/otlp-push.js';
import type { OnClose } from './serve-or-run.js';

export async function startRecordingCore(
  onClose: OnClose,
  options: CoreOptions,
  otlp?: OtlpPushOptions,
): Promise<Core> {
  const core = await startCore(options);
  const push = otlp ? startOtlpPush(core.dbPath, core.sessionStart, otlp) : null;
  onClose(async () => {
    try {
      await core.close();
    } finally {
      // Even after a failed close: its thread would keep the process alive.
      await push?.close();
    }
  });
  return core;
}
