// The service's `forks.create` hook: makes a fork plan of a run of the live recording and
// serves it on the running proxy, from the core's thread, whose proxy routes `/fork/<id>`.
import { ApiError } from '../../../shared/api/errors.js';
import type { ForkCreateRequest, ForkInfo } from '../../../shared/api/types.js';
import { forkLabel } from '../../../shared/capture/route.js';
import { ForkEditError, parseEdit, type ForkEdit } from '../../../shared/fork/fork-edits.js';
import type { Json } from '../../../shared/trace/types.js';
import type { Core } from '../core.js';
import { forkBaseUrl } from './fork-registry.js';
import { ForkPlanError } from './prepare-fork.js';

export function forkMaker(core: Core, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)) {
  return async (request: ForkCreateRequest): Promise<ForkInfo> => {
    let edits: ForkEdit[];
    try {
      edits = request.edits.map((e) => parseEdit(e.pointer, e.value as Json));
      const fork = await core.forks.make(core.db, core.db, { run: request.runId, step: request.step, edits }, log);
      return {
        id: fork.id,
        baseUrl: forkBaseUrl(core.proxy.baseUrl, fork.id),
        runId: `label:${forkLabel(fork.id)}`,
        forkedFrom: { run: request.runId, step: request.step },
      };
    } catch (err) {
      if (err instanceof ForkEditError || err instanceof ForkPlanError) throw new ApiError('bad_request', err.message);
      throw err;
    }
  };
}
