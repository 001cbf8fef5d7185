// Wires the API client to the stores: loads what is needed, applies pushes, and refetches
// after a reconnect (pushes sent while disconnected are lost, so state is rebuilt). No
// React here; App creates one controller per client.
import { ApiError } from '../../shared/api/errors.js';
import type { ApiClient, ConnectionStatus } from '../api/api-client.js';
import { buildRunView } from '../model/run-view.js';
import { useAppStore } from '../state/app-store.js';
import { useRunStore } from '../state/run-store.js';
import { listRequest, sameFilter, type RunFilter } from '../state/runs-logic.js';
import { useRunsStore } from '../state/runs-store.js';

const LIST_DEBOUNCE_MS = 150;
const DETAIL_MIN_INTERVAL_MS = 250;

export class Controller {
  private readonly offs: Array<() => void> = [];
  private listTimer: ReturnType<typeof setTimeout> | null = null;
  private detail: { inFlight: boolean; again: boolean; last: number; timer: ReturnType<typeof setTimeout> | null } = {
    inFlight: false,
    again: false,
    last: 0,
    timer: null,
  };
  private lastStatus: ConnectionStatus = 'connecting';

  constructor(readonly api: ApiClient) {}

  start(): void {
    const api = this.api;
    this.offs.push(
      api.onConnection((status) => {
        useAppStore.getState().setConnection(status);
        if (status === 'open' && this.lastStatus === 'lost') this.reloadAll();
        this.lastStatus = status;
      }),
      api.on('run.updated', ({ run }) => {
        useRunsStore.getState().runUpdated(run);
        if (useRunsStore.getState().filter.query) this.scheduleList(1_000);
        if (useRunStore.getState().runId === run.id) this.refreshDetail();
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
      api.on('recording.opened', () => {
        useRunsStore.getState().reset();
        useRunStore.getState().selectRun(null);
        this.reloadAll();
      }),
      useRunsStore.subscribe((s, prev) => {
        if (!sameFilter(s.filter, prev.filter)) this.scheduleList(LIST_DEBOUNCE_MS);
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

  selectRun(runId: string | null): void {
    useRunStore.getState().selectRun(runId);
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
    } catch (err) {
      useRunsStore.getState().listFailed(message(err));
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
    const runId = useRunStore.getState().runId;
    if (!runId) return;
    d.inFlight = true;
    d.last = Date.now();
    // Marks for the UI benchmark (bench/ui-bench.ts): fetch, then building the view.
    performance.mark('loupe:run-requested');
    this.api
      .invoke('runs.get', { runId })
      .then((detail) => {
        performance.mark('loupe:run-received');
        const view = buildRunView(detail);
        performance.mark('loupe:view-built');
        useRunStore.getState().loaded(detail, view);
      })
      .catch((err) => useRunStore.getState().failed(runId, message(err)))
      .finally(() => {
        d.inFlight = false;
        if (d.again) {
          d.again = false;
          this.refreshDetail();
        }
      });
  }

  private report(err: unknown): void {
    if (err instanceof ApiError && err.code === 'unavailable') return; // the connection banner says it
    useAppStore.getState().setError(message(err));
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
