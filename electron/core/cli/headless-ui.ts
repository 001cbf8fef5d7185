// The UI of `serve` and `demo`: the API service in a thread of its own, off the relay's
// (service-thread.ts), behind the headless HTTP + WebSocket server. Closed server first.
import type { Core } from '../core.js';
import { startHeadlessServer } from '../headless/server.js';
import { startService } from '../service/service-thread.js';
import { demoStarter } from '../sim/demo/demo-starter.js';
import { forkMaker } from '../fork/fork-maker.js';
import type { OnClose } from './serve-or-run.js';

/** Resolves with the UI's URL, its token in the query. */
export async function startHeadlessUi(onClose: OnClose, core: Core, port: number): Promise<string> {
  const service = await startService(core, { startDemo: demoStarter(core), makeFork: forkMaker(core) });
  onClose(() => service.close());
  const ui = await startHeadlessServer({ api: service, port });
  onClose(() => ui.close());
  return ui.url;
}
