// The one implementation of the API contract (shared/api). Adapters (headless HTTP and
// WebSocket, Electron IPC) call `invoke` and subscribe with `on`; they hold no per-channel
// code. It runs in a thread of its own wherever the compiled worker exists
// (service-thread.ts), over a read-only connection of its own.
import { EventEmitter } from 'node:events';
import path from 'node:path';
import pkg from '../../../package.json' with { type: 'json' };
import {
  invokeHandler,
  isChannel,
  type ApiEvents,
  type ApiHandlers,
  type ChannelName,
  type EventName,
  type LoupeApi,
  type RequestOf,
  type ResponseOf,
} from '../../../shared/api/contract.js';
import { ApiError } from '../../../shared/api/errors.js';
import { compareRuns as compareRunOrder, matchesFilters, normalizeQuery } from '../../../shared/api/run-filter.js';
import { firstAfter, parseRunCursor, runCursor } from '../../../shared/api/run-cursor.js';
import { compareRuns } from '../../../shared/diff/run-comparison.js';
import type {
  ForkCreateRequest,
  ForkInfo,
  RecordingHealth,
  RunDetail,
  RunsListResponse,
  RunStatus,
  RunSummary,
  SearchHit,
} from '../../../shared/api/types.js';
import { readExchange } from './exchange-read.js';
import { priceTable, type Run } from './trace-adapter.js';
import { RecordingSource, type SourceListener } from './recording-source.js';
import { searchRuns } from './run-search.js';
import { RunSkeletons } from './run-skeletons.js';
import type { ServiceCore } from './service-core.js';
import {
  optionalCount,
  optionalString,
  optionalStrings,
  requestObject,
  requiredCount,
  requiredString,
} from './validate.js';

export interface ServiceOptions {
  /** The running core: its recording is shown live. */
  core?: ServiceCore;
  /** Without a core: a recording to show read-only. */
  dbPath?: string;
  livePollMs?: number;
  /**
   * Starts a demo run into the live recording (electron/core/sim/demo/demo-starter.ts). Injected so
   * the service does not load the demo's SDKs; absent when only a file is shown.
   */
  startDemo?: (scenario: string, speed: number) => Promise<{ scenario: string; label: string }>;
  /** Makes a fork plan on the running proxy (electron/core/fork/fork-maker.ts); absent when only a file is shown. */
  makeFork?: (request: ForkCreateRequest) => Promise<ForkInfo>;
}

export interface LoupeService extends LoupeApi {
  readonly handlers: ApiHandlers;
  /** Applies changes gathered so far and polls in-flight exchanges once (tests). */
  sync(): Promise<void>;
  close(): Promise<void>;
}

type Emitter = EventEmitter<{ [E in EventName]: [ApiEvents[E]] }>;

const NO_HEALTH: RecordingHealth = {
  exchanges: 0,
  failedWrites: 0,
  lostExchanges: 0,
  lastError: null,
  firstLossAt: null,
  lastLossAt: null,
  resumed: false,
};

export function createService(options: ServiceOptions): LoupeService {
  const core = options.core ?? null;
  const events: Emitter = new EventEmitter();
  events.setMaxListeners(0);
  const listener: SourceListener = {
    changed(change, exchanges) {
      for (const run of change.updated) events.emit('run.updated', { run });
      for (const removed of change.removed) events.emit('run.removed', removed);
      for (const e of exchanges) events.emit('exchange.updated', e);
    },
    recorded(exchangeId) {
      events.emit('exchange.recorded', { exchangeId });
    },
  };
  const open = (file: string | undefined): RecordingSource => {
    if (core && (file === undefined || path.resolve(file) === path.resolve(core.dbPath))) {
      return RecordingSource.live(core, listener, options.livePollMs);
    }
    if (file === undefined) throw new Error('createService needs a core or a dbPath');
    return RecordingSource.file(file, listener);
  };
  let source = open(options.dbPath);
  const skeletons = new RunSkeletons();
  const onFailed = (health: RecordingHealth) => events.emit('recording.failed', { ...health });
  const onResumed = (health: RecordingHealth) => events.emit('recording.resumed', { ...health });
  core?.events.on('recording.failed', onFailed);
  core?.events.on('recording.resumed', onResumed);

  const handlers: ApiHandlers = {
    async 'app.info'() {
      return {
        version: pkg.version,
        proxyUrl: core?.proxy.baseUrl ?? null,
        recording: { path: source.path, live: source.live },
        health: core ? { ...core.recorder.health } : NO_HEALTH,
      };
    },

    async 'runs.list'(request): Promise<RunsListResponse> {
      const req = requestObject(request);
      const query = normalizeQuery(optionalString(req, 'query'));
      const filter = {
        status: optionalStrings(req, 'status') as RunStatus[] | undefined,
        models: optionalStrings(req, 'models'),
      };
      const limit = optionalCount(req, 'limit');
      if (limit === 0) throw new ApiError('bad_request', '"limit" must be at least 1');
      const cursor = optionalString(req, 'cursor');
      const after = cursor === undefined ? null : parseRunCursor(cursor);
      if (after === null && cursor !== undefined)
        throw new ApiError('bad_request', `"cursor" is not a cursor this service gave: ${JSON.stringify(cursor)}`);
      await source.catchUp();
      const index = source.index;
      // Unfiltered, the list's order is known without reading a summary, and only the
      // page's are read: what opening a large library costs.
      let ordered: Array<{ id: string; startedAt: number }> = index.ordered();
      let hitsOf: ((runIds: string[]) => Record<string, SearchHit[]>) | undefined;
      if (filter.status?.length || filter.models?.length)
        ordered = index
          .allSummaries()
          .filter((run) => matchesFilters(run, filter))
          .sort(compareRunOrder);
      if (query) {
        const found = searchRuns(ordered, query, index, source.search);
        ordered = found.runs;
        hitsOf = found.hitsOf;
      }
      const start = after ? firstAfter(ordered, after) : 0;
      const end = limit === undefined ? ordered.length : Math.min(ordered.length, start + limit);
      const runs = index.summariesOf(ordered.slice(start, end).map((r) => r.id));
      const page: RunsListResponse = {
        runs,
        total: index.ordered().length,
        matched: ordered.length,
        nextCursor: end < ordered.length && end > 0 ? runCursor(ordered[end - 1]!) : null,
        models: index.models(),
      };
      // Where the page's runs match is read for them alone: a term in every run costs a page.
      if (hitsOf) page.hits = hitsOf(runs.map((r) => r.id));
      return page;
    },

    async 'runs.get'(request): Promise<RunDetail> {
      const req = requestObject(request);
      const runId = requiredString(req, 'runId');
      const ask = {
        from: optionalCount(req, 'from'),
        after: optionalString(req, 'after'),
        page: optionalCount(req, 'page'),
        callsFrom: optionalCount(req, 'callsFrom'),
        callsAfter: optionalString(req, 'callsAfter'),
        spansFrom: optionalCount(req, 'spansFrom'),
        spansAfter: optionalString(req, 'spansAfter'),
      };
      await source.catchUp();
      const run = source.index.run(runId);
      const summary = source.index.summary(runId);
      if (!run || !summary) throw new ApiError('not_found', `no run "${runId}" in this recording`);
      const index = source.index;
      return skeletons.detail(index, run, ask, {
        summary,
        notes: noteRows(source, [...new Set(run.responses.map((r) => r.exchangeId))]),
        prices: priceTable(),
        agentSpans: index.agentSpans(runId),
        calls: {
          refs: index.contextRefs(runId),
          settled: index.settledCalls(runId),
          from: (start) => index.conversationCalls(runId, start),
        },
      });
    },

    async 'items.get'(request) {
      const req = requestObject(request);
      const runId = requiredString(req, 'runId');
      const exchangeId = requiredCount(req, 'exchangeId');
      const responseId = requiredString(req, 'responseId');
      const part = optionalString(req, 'part');
      const at = requiredCount(req, 'index');
      if (part !== 'input' && part !== 'output')
        throw new ApiError('bad_request', '"part" must be "input" or "output"');
      await source.catchUp();
      const r = source.index
        .run(runId)
        ?.responses.find((x) => x.exchangeId === exchangeId && x.responseId === responseId);
      if (!r) throw new ApiError('not_found', `no response ${responseId} of exchange ${exchangeId} in run "${runId}"`);
      const record = source.index.fullRecordOf(r);
      const item = (part === 'input' ? record.request.input : record.output)[at];
      if (!item) throw new ApiError('not_found', `response ${responseId} has no ${part} item ${at}`);
      return item;
    },

    async 'runs.compare'(request) {
      const req = requestObject(request);
      const ids = [requiredString(req, 'runA'), requiredString(req, 'runB')] as const;
      await source.catchUp();
      const [a, b] = ids.map((runId) => {
        const run = source.index.wholeRun(runId);
        const summary = source.index.summary(runId);
        if (!run || !summary) throw new ApiError('not_found', `no run "${runId}" in this recording`);
        return { run, summary };
      }) as [{ run: Run; summary: RunSummary }, { run: Run; summary: RunSummary }];
      return {
        comparison: compareRuns({ run: a.run }, { run: b.run }, priceTable()),
        summaries: { a: a.summary, b: b.summary },
      };
    },

    async 'exchanges.get'(request) {
      const req = requestObject(request);
      const id = requiredCount(req, 'exchangeId');
      const detail = await readExchange(source.db, id);
      if (!detail) throw new ApiError('not_found', `no exchange ${id} in this recording`);
      return detail;
    },

    async 'recordings.open'(request) {
      const req = requestObject(request);
      const file = requiredString(req, 'path');
      let next: RecordingSource;
      try {
        next = open(file);
      } catch (err) {
        throw new ApiError('bad_request', (err as Error).message);
      }
      source.close();
      source = next;
      const info = { path: source.path, live: source.live };
      events.emit('recording.opened', info);
      return info;
    },
    async 'demo.start'(request) {
      const req = requestObject(request);
      const scenario = optionalString(req, 'scenario') ?? 'support';
      const speed = req.speed === undefined ? 1 : req.speed;
      if (typeof speed !== 'number' || !(speed > 0) || speed > 10_000)
        throw new ApiError('bad_request', '"speed" must be a number above 0');
      if (!options.startDemo || !source.live)
        throw new ApiError('unavailable', 'demo runs play into the live recording; open it first');
      return options.startDemo(scenario, speed);
    },
    async 'forks.create'(request) {
      const req = requestObject(request);
      const runId = requiredString(req, 'runId');
      const step = requiredCount(req, 'step');
      const edits = req.edits;
      if (
        !Array.isArray(edits) ||
        edits.length === 0 ||
        !edits.every(
          (e) =>
            typeof e === 'object' &&
            e !== null &&
            typeof (e as { pointer?: unknown }).pointer === 'string' &&
            'value' in e,
        )
      ) {
        throw new ApiError('bad_request', '"edits" must be a non-empty list of {pointer, value}');
      }
      if (!options.makeFork || !source.live)
        throw new ApiError(
          'unavailable',
          'forks are made from the live recording, on the running proxy; open it first',
        );
      return options.makeFork({ runId, step, edits: edits as ForkCreateRequest['edits'] });
    },
  };

  return {
    handlers,
    invoke<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
      if (!isChannel(channel))
        return Promise.reject(new ApiError('unknown_channel', `no channel "${String(channel)}"`));
      return invokeHandler(handlers, channel, request);
    },
    on(event, cb) {
      events.on(event, cb as never);
      return () => void events.off(event, cb as never);
    },
    async sync() {
      await source.pollLive();
      await source.catchUp();
    },
    async close() {
      core?.events.off('recording.failed', onFailed);
      core?.events.off('recording.resumed', onResumed);
      source.close();
      events.removeAllListeners();
    },
  };
}

function noteRows(source: RecordingSource, exchangeIds: number[]): RunDetail['notes'] {
  const stmt = source.db.prepare('SELECT note FROM exchange_notes WHERE exchange_id = ?').pluck();
  const out: RunDetail['notes'] = [];
  for (const exchangeId of exchangeIds)
    for (const note of stmt.all(exchangeId) as string[]) out.push({ exchangeId, note });
  return out;
}
