// Wires the API client to the stores: loads what is needed, applies pushes, and refetches
// after a reconnect (pushes sent while disconnected are lost, so state is rebuilt). No
// React here; App creates one controller per client.
import { ApiError } from '../../shared/api/errors.js';
import type { ApiClient, ConnectionStatus } from '../api/api-client.js';
import type { RunSummary } from '../../shared/api/types.js';
import { initialCompareState } from '../compare/compare-logic.js';
import { useCompareStore } from '../compare/compare-store.js';
import { failureReason } from '../../shared/trace/normalize/failure-reason.js';
import {
  DeltaMismatchError,
  deltaMarks,
  deltaRequest,
  expandRun,
  type DeltaMarks,
} from '../../shared/api/run-expand.js';
import type { RunDetail, RunRecords } from '../../shared/api/types.js';
import {
  FIRST_SCREEN_RESPONSES,
  firstScreen,
  runViewSteps,
  viewMetricsSteps,
  type RunView,
} from '../model/run-view.js';
import { canvasSteps } from '../graph/canvas-steps.js';
import { afterPaint, nextTask, runStepsApart } from '../lib/next-task.js';
import { useAppStore } from '../state/app-store.js';
import { formatLink, parseLink, type DeepLink } from '../state/deep-link.js';
import { useRunStore } from '../state/run-store.js';
import { listRequest, sameFilter, type RunFilter } from '../state/runs-logic.js';
import { useRunsStore } from '../state/runs-store.js';
import { useUiStore } from '../state/ui-store.js';

const LIST_DEBOUNCE_MS = 150;
const DETAIL_MIN_INTERVAL_MS = 250;
/**
 * Responses per page of a long run after its first screen (ADR 51): a 3,000-turn chain's
 * 250 are about 2 MB of answer, read, sent and parsed in tasks well under the 200 ms a page
 * may take, where its 23 MB whole held the page for 200 ms in its decode alone.
 */
const REST_PAGE_RESPONSES = 250;

export class Controller {
  private readonly offs: Array<() => void> = [];
  private listTimer: ReturnType<typeof setTimeout> | null = null;
  /** The cursor of the page being fetched, if one is. */
  private pageInFlight: string | null = null;
  private detail: {
    inFlight: boolean;
    again: boolean;
    last: number;
    timer: ReturnType<typeof setTimeout> | null;
    /** The run held and how much of it the server called settled: a delta starts there. */
    settled: DeltaMarks | null;
    /** A long run's pages read past the first screen shown, until the last of them (ADR 51). */
    pages: RunRecords | null;
  } = {
    inFlight: false,
    again: false,
    last: 0,
    timer: null,
    settled: null,
    pages: null,
  };
  private lastStatus: ConnectionStatus = 'connecting';
  /** Label prefix of a demo just started: its first run is opened when it appears. */
  private openWhenSeen: string | null = null;
  /** A deep link's selection, applied once its run's detail has loaded. */
  private pendingLink: DeepLink | null = null;
  private readonly upstreamAsked = new Set<string>();

  constructor(readonly api: ApiClient) {}

  start(): void {
    const api = this.api;
    const link = parseLink(globalThis.location?.hash ?? '');
    if (link.runId) {
      this.pendingLink = link;
      useRunStore.getState().selectRun(link.runId);
    }
    this.offs.push(
      api.onConnection((status) => {
        useAppStore.getState().setConnection(status);
        if (status === 'open' && this.lastStatus === 'lost') this.reloadAll();
        this.lastStatus = status;
      }),
      api.on('run.updated', ({ run }) => {
        useRunsStore.getState().runUpdated(run);
        if (
          this.openWhenSeen !== null &&
          run.label !== null &&
          (run.label === this.openWhenSeen || run.label.startsWith(`${this.openWhenSeen}-`))
        ) {
          this.openWhenSeen = null;
          this.selectRun(run.id);
        }
        if (useRunsStore.getState().filter.query) this.scheduleList(1_000);
        if (useRunStore.getState().runId === run.id) this.refreshDetail();
        this.judgeUpstream(run);
      }),
      api.on('run.removed', ({ runId, replacedBy }) => {
        useRunsStore.getState().runRemoved(runId);
        if (useRunStore.getState().runId === runId) {
          useRunStore.getState().replaced(runId, replacedBy);
          if (replacedBy) this.refreshDetail();
        }
      }),
      api.on('recording.failed', (health) => useAppStore.getState().recordingHealthChanged(health)),
      api.on('recording.resumed', (health) => useAppStore.getState().recordingHealthChanged(health)),
      api.on('recording.upgrading', (progress) => useAppStore.getState().upgradeChanged(progress)),
      api.on('recording.opened', () => {
        useRunsStore.getState().reset();
        useCompareStore.setState(initialCompareState);
        useRunStore.getState().selectRun(null);
        this.detail.settled = null;
        this.detail.pages = null;
        this.reloadAll();
      }),
      useRunsStore.subscribe((s, prev) => {
        if (!sameFilter(s.filter, prev.filter)) this.scheduleList(LIST_DEBOUNCE_MS);
      }),
      useRunStore.subscribe((s, prev) => {
        if (s.runId !== prev.runId || s.selection !== prev.selection) this.writeLink();
      }),
    );
    this.reloadAll();
  }

  stop(): void {
    for (const off of this.offs.splice(0)) off();
    if (this.listTimer) clearTimeout(this.listTimer);
    if (this.detail.timer) clearTimeout(this.detail.timer);
  }

  reloadAll(): void {
    void this.loadInfo();
    void this.loadList();
    if (useRunStore.getState().runId) this.refreshDetail();
  }

  /**
   * The top bar's upstream mark, from live pushes: a run that ended well says the upstream
   * answers; a failed one is asked for its newest response, whose reason is shown.
   */
  private judgeUpstream(run: RunSummary): void {
    const store = useAppStore.getState();
    if (run.endedAt < store.upstream.at) return;
    if (run.status === 'completed' || run.status === 'incomplete') {
      store.setUpstream({ state: 'ok', reason: null, at: run.endedAt });
      return;
    }
    if (run.status !== 'failed' || this.upstreamAsked.has(`${run.id}@${run.revision}`)) return;
    this.upstreamAsked.add(`${run.id}@${run.revision}`);
    this.api
      .invoke('runs.get', { runId: run.id, from: Math.max(0, run.responses - 1) })
      .then((detail) => {
        const last = detail.responses[detail.responses.length - 1];
        if (!last) return;
        const reason = failureReason(last);
        useAppStore
          .getState()
          .setUpstream(
            reason ? { state: 'failing', reason, at: run.endedAt } : { state: 'ok', reason: null, at: run.endedAt },
          );
      })
      .catch(() => undefined);
  }

  /** Plays a demo and opens its run as soon as the run appears. */
  async startDemo(scenario: string): Promise<{ scenario: string; label: string }> {
    const started = await this.api.invoke('demo.start', { scenario });
    this.openWhenSeen = started.label;
    const seen = Object.values(useRunsStore.getState().byId).find(
      (r) => r.label?.startsWith(`${started.label}-`) || r.label === started.label,
    );
    if (seen) {
      this.openWhenSeen = null;
      this.selectRun(seen.id);
    }
    return started;
  }

  /** A recording file from the browser's machine, sent to Loupe's and opened there read-only. */
  async uploadRecording(file: File): Promise<void> {
    if (!this.api.upload) throw new Error('this window opens recordings from its File menu');
    await this.openRecording(await this.api.upload(file, file.name));
  }

  /** Switches to another recording file; the `recording.opened` push reloads everything. */
  async openRecording(path: string): Promise<void> {
    await this.api.invoke('recordings.open', { path });
    void this.loadInfo();
  }

  /** The URL follows the view (replaceState: stepping through nodes does not fill the history). */
  private writeLink(): void {
    const loc = globalThis.location;
    const history = globalThis.history;
    if (!loc || !history || this.pendingLink) return;
    const { runId, selection } = useRunStore.getState();
    const hash = formatLink({ runId, selection });
    if (hash === loc.hash || (!hash && !loc.hash)) return;
    history.replaceState(history.state, '', `${loc.pathname}${loc.search}${hash}`);
  }

  /** After a deep-linked run loads: select what the link named, if the run still has it. */
  private applyLink(): void {
    const link = this.pendingLink;
    const state = useRunStore.getState();
    if (!link || state.runId !== link.runId || !state.view) return;
    this.pendingLink = null;
    const sel = link.selection;
    if (sel?.kind === 'node' && state.view.nodeById[sel.id]) {
      state.select(sel);
      useUiStore.getState().focusNode(sel.id);
    } else if (sel?.kind === 'response' && state.detail && sel.index < state.detail.responses.length) state.select(sel);
    this.writeLink();
  }

  /** Opens a run with a response selected once it has loaded (as a deep link does). */
  openAt(runId: string, selection: NonNullable<DeepLink['selection']>): void {
    if (useRunStore.getState().runId === runId && useRunStore.getState().view) {
      useRunStore.getState().select(selection);
      return;
    }
    this.pendingLink = { runId, selection };
    this.selectRun(runId);
  }

  selectRun(runId: string | null): void {
    if (this.pendingLink && this.pendingLink.runId !== runId) this.pendingLink = null;
    useRunStore.getState().selectRun(runId);
    this.detail.settled = null;
    this.detail.pages = null;
    if (runId) this.refreshDetail(true);
  }

  async loadInfo(): Promise<void> {
    try {
      useAppStore.getState().setInfo(await this.api.invoke('app.info', {}));
    } catch (err) {
      this.report(err);
    }
  }

  async loadList(): Promise<void> {
    const asked: RunFilter = useRunsStore.getState().filter;
    try {
      const res = await this.api.invoke('runs.list', listRequest(asked));
      useRunsStore.getState().listLoaded(asked, res);
      // After a reload nothing is pushed until new traffic: the newest run says how the upstream did.
      const newest = res.runs.reduce<RunSummary | null>((a, r) => (!a || r.endedAt > a.endedAt ? r : a), null);
      if (newest && useAppStore.getState().info?.recording.live !== false) this.judgeUpstream(newest);
    } catch (err) {
      useRunsStore.getState().listFailed(message(err));
    }
  }

  /** The list's next page, when it is scrolled near its end; one request at a time. */
  async loadMoreRuns(): Promise<void> {
    const { filter: asked, nextCursor: cursor } = useRunsStore.getState();
    if (cursor === null || this.pageInFlight === cursor) return;
    this.pageInFlight = cursor;
    try {
      useRunsStore.getState().pageLoaded(asked, cursor, await this.api.invoke('runs.list', listRequest(asked, cursor)));
    } catch (err) {
      useRunsStore.getState().listFailed(message(err));
    } finally {
      this.pageInFlight = null;
    }
  }

  private scheduleList(ms: number): void {
    if (this.listTimer) clearTimeout(this.listTimer);
    this.listTimer = setTimeout(() => {
      this.listTimer = null;
      void this.loadList();
    }, ms);
  }

  /**
   * Fetches the selected run's detail: at most one request in flight and one every
   * DETAIL_MIN_INTERVAL_MS while a live run streams; the last push always wins.
   */
  refreshDetail(now = false): void {
    const d = this.detail;
    if (d.inFlight) {
      d.again = true;
      return;
    }
    const wait = now ? 0 : Math.max(0, d.last + DETAIL_MIN_INTERVAL_MS - Date.now());
    if (wait > 0) {
      d.timer ??= setTimeout(() => {
        d.timer = null;
        this.refreshDetail(true);
      }, wait);
      return;
    }
    const { runId, detail: shown, view: shownView } = useRunStore.getState();
    if (!runId) return;
    d.inFlight = true;
    d.last = Date.now();
    // A delta from the responses the server called settled, when this run is the one held:
    // the pages read past its first screen, while a long run opens, else what is shown.
    const base = d.pages?.summary.id === runId ? d.pages : shown;
    const held = base?.summary.id === runId && d.settled?.runId === runId ? base : null;
    const ask = deltaRequest(runId, held, d.settled);
    // A long finished run opens in pages (ADR 51): its first screen's responses, drawn at
    // once, then the rest in pages, each a delta, drawn when the last has come.
    const opening = shownView?.runId !== runId || shownView.firstScreen === true;
    if (opening) ask.page = held ? REST_PAGE_RESPONSES : FIRST_SCREEN_RESPONSES;
    let more = false;
    // Marks for the UI benchmark (bench/ui-bench.ts): fetch, then building the view.
    performance.mark('loupe:run-requested');
    this.api
      .invoke('runs.get', ask)
      .then(async (detail) => {
        performance.mark('loupe:run-received');
        // Parsing the answer, expanding it, each stage of the view and rendering it are tasks
        // of their own: together they held the page for a second on a long run.
        await nextTask();
        const records = applyDetail(detail, held);
        if (!records) {
          // The run changed under the delta (rethreaded): ask for the whole of it.
          d.settled = null;
          d.pages = null;
          d.again = true;
          return;
        }
        d.settled = deltaMarks(detail);
        d.pages = null;
        await nextTask();
        if (detail.more) {
          more = true;
          if (detail.from > 0) {
            d.pages = records;
            return;
          }
          const view = await runStepsApart(runViewSteps(records));
          await this.show(records, { ...view, firstScreen: true });
          await afterPaint();
          return;
        }
        // A run opening is drawn as soon as its first screen is: from its first responses
        // when it is long and finished, and before its metrics are built. A run shown keeps
        // its view until the next is whole, metrics and all; one shown as its first screen
        // is still opening.
        const now = useRunStore.getState().view;
        const firstShown = now?.runId === runId && now.firstScreen === true;
        const first = opening && !firstShown ? firstScreen(records) : null;
        if (first) {
          const view = await runStepsApart(runViewSteps(first));
          await this.show(first, { ...view, firstScreen: true });
          // The first screen painted before the rest is built.
          await afterPaint();
        }
        const view = await runStepsApart(runViewSteps(records));
        performance.mark('loupe:view-built');
        const metrics = opening ? null : await runStepsApart(viewMetricsSteps(view, records));
        const built = metrics ? { ...view, metrics } : view;
        await this.show(records, built);
        if (metrics) return;
        await nextTask();
        useRunStore.getState().metricsBuilt(built, await runStepsApart(viewMetricsSteps(view, records)));
        performance.mark('loupe:metrics-built');
      })
      .catch((err) => {
        useRunStore.getState().failed(runId, message(err));
        if (this.pendingLink?.runId === runId) this.pendingLink = null;
      })
      .finally(() => {
        d.inFlight = false;
        if (d.again || more) {
          d.again = false;
          this.refreshDetail(d.settled === null || more);
        }
      });
  }

  /** Shows a view, its flow for the canvas cut in a task of its own before the render's. */
  private async show(records: RunRecords, view: RunView): Promise<void> {
    // The flow, and the index its window is picked by, before the render reads them.
    await runStepsApart(canvasSteps(view));
    await nextTask();
    useRunStore.getState().loaded(records, view);
    performance.mark(view.firstScreen ? 'loupe:first-screen-shown' : 'loupe:view-shown');
    // A link may name what lies past the first screen: it is applied to the whole view.
    if (!view.firstScreen) this.applyLink();
  }

  private report(err: unknown): void {
    if (err instanceof ApiError && err.code === 'unavailable') return; // the connection banner says it
    useAppStore.getState().setError(message(err));
  }
}

/** The run held with a delta applied, or the whole run; null when a delta does not apply. */
function applyDetail(detail: RunDetail, held: RunRecords | null): RunRecords | null {
  try {
    return expandRun(detail, held);
  } catch (err) {
    if (err instanceof DeltaMismatchError) return null;
    throw err;
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
