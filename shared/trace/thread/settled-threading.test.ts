// Threading a recording as it is recorded: exchanges appear while in flight (normalized
// anew at each look, possibly with fewer responses than they will end with), then settle,
// in any order. At every step the runs must be exactly threadRuns over what is there.
import { describe, expect, it } from 'vitest';
import { mixedRecording } from '../testing/mixed-recording.js';
import { backgroundPolls } from '../testing/scenarios-reads.js';
import { normalizeExchange } from '../normalize/normalize.js';
import { seededRandom } from '../testing/random-run.js';
import { recordStartUs } from '../record-time.js';
import { SettledThreading } from './settled-threading.js';
import { threadRuns } from './thread.js';
import type { ResponseRecord } from '../types.js';

interface Step {
  /** Exchanges seen so far: in flight (records changing) or settled. */
  inFlight: Set<number>;
  settled: Set<number>;
}

/** What the run index keeps of a settled response: a stub naming it (and the run it was settled into, to check). */
interface Stub {
  responseId: string;
  settledInto: string;
}

/** Runs reduced to what both kinds share: ids, labels, links and each response's id. */
const outline = (
  runs: Array<{ id: string; label: string | null; links: unknown[]; responses: Array<{ responseId: string }> }>,
) =>
  runs.map((run) => ({
    id: run.id,
    label: run.label,
    links: run.links,
    responses: run.responses.map((r) => r.responseId),
  }));

function simulate(
  seed: number,
  appearOutOfOrder: boolean,
  keepStubs = false,
): { steps: number; restarts: number; threaded: number; stubs: number } {
  const exchanges = mixedRecording(seed);
  const finalRecords = new Map(exchanges.map((e) => [e.id, normalizeExchange(e).responses]));
  const rnd = seededRandom(seed * 7);
  const state: Step = { inFlight: new Set(), settled: new Set() };
  const current = new Map<number, ResponseRecord[]>();
  let restartsSeen = 0;
  const threading = keepStubs
    ? new SettledThreading<Stub>({
        settle: (record, runId) => ({ responseId: record.responseId, settledInto: runId }),
        restart: () => restartsSeen++,
      })
    : new SettledThreading();
  let stubs = 0;
  const unseen = exchanges.map((e) => e.id);
  let steps = 0;
  let threaded = 0;
  while (unseen.length > 0 || state.inFlight.size > 0) {
    const changed = new Set<number>();
    if (unseen.length > 0 && (state.inFlight.size === 0 || rnd() < 0.5)) {
      // The next exchange to start, or now and then one a little later than it.
      const pick = appearOutOfOrder ? Math.min(unseen.length - 1, Math.floor(rnd() * 3)) : 0;
      const [id] = unseen.splice(pick, 1);
      state.inFlight.add(id!);
    } else {
      const open = [...state.inFlight];
      const id = open[Math.floor(rnd() * open.length)]!;
      state.inFlight.delete(id);
      state.settled.add(id);
      current.set(id, finalRecords.get(id)!);
      changed.add(id);
    }
    // Every look normalizes each in-flight exchange anew: new objects, maybe fewer responses.
    for (const id of state.inFlight) {
      const all = finalRecords.get(id)!;
      current.set(
        id,
        all.slice(0, 1 + Math.floor(rnd() * all.length)).map((r) => ({ ...r })),
      );
      changed.add(id);
    }
    const runs = threading.thread(changed, {
      ids: () => current.keys(),
      records: (id) => current.get(id) ?? [],
      changing: (id) => state.inFlight.has(id),
    });
    const everything = [...current.keys()].sort((a, b) => a - b).flatMap((id) => current.get(id)!);
    const expected = threadRuns(everything);
    if (!keepStubs) {
      expect(runs, `seed ${seed}, step ${steps}`).toEqual(expected);
    } else {
      expect(outline(runs), `seed ${seed}, step ${steps}`).toEqual(outline(expected));
      for (const run of runs) {
        const kept = run.responses.filter((r): r is Stub => 'settledInto' in r);
        // Settled into the run that holds it, and only ever a run's first responses.
        for (const stub of kept) expect(stub.settledInto).toBe(run.id);
        expect(run.responses.slice(0, kept.length)).toEqual(kept);
        stubs = Math.max(stubs, kept.length);
      }
      expect(restartsSeen).toBe(threading.restarts);
    }
    threaded += everything.length;
    steps++;
  }
  return { steps, restarts: threading.restarts, threaded, stubs };
}

describe.each([1, 2, 3, 4, 5, 6, 7, 8])('threading a recording as it grows, seed %i', (seed) => {
  it("gives threadRuns' runs at every step, exchanges starting in order, without starting again", () => {
    const { steps, restarts } = simulate(seed, false);
    expect(steps).toBeGreaterThan(20);
    expect(restarts).toBe(0);
  });

  it('keeps what settle() makes of a settled response, told the run it went into, in and out of order', () => {
    for (const outOfOrder of [false, true]) expect(simulate(seed, outOfOrder, true).stubs).toBeGreaterThan(0);
  });

  it("gives threadRuns' runs at every step when exchanges turn up out of order", () => {
    const { restarts, steps } = simulate(seed, true);
    expect(restarts).toBeGreaterThanOrEqual(1);
    expect(restarts).toBeLessThan(steps);
  });
});

describe('SettledThreading', () => {
  it('starts again when a settled exchange changes, and still threads as threadRuns does', () => {
    const exchanges = mixedRecording(11);
    const records = new Map(exchanges.map((e) => [e.id, normalizeExchange(e).responses]));
    const threading = new SettledThreading();
    const source = { ids: () => records.keys(), records: (id: number) => records.get(id) ?? [], changing: () => false };
    threading.thread(records.keys(), source);
    expect(threading.restarts).toBe(0);
    // Reindexed: the responses of the exchange settled last are new objects, its label
    // changed. Nothing sorts before the settled part's end, so only the change says so.
    const latest = [...records.values()].flat().reduce((a, b) => (recordStartUs(b) >= recordStartUs(a) ? b : a));
    const last = latest.exchangeId;
    records.set(
      last,
      records.get(last)!.map((r) => ({ ...r, exchange: { ...r.exchange, label: 'relabelled' } })),
    );
    const runs = threading.thread([last], source);
    expect(threading.restarts).toBe(1);
    expect(runs).toEqual(threadRuns([...records.values()].flat()));
    expect(runs.some((run) => run.id === 'label:relabelled')).toBe(true);
  });

  it('settles a background response once, finished, only when a read that finished it is recorded', () => {
    const exchanges = backgroundPolls();
    const records = new Map<number, ResponseRecord[]>();
    const settledAs: Array<[string, string, number | null]> = [];
    const threading = new SettledThreading<Stub>({
      settle: (record, runId) => {
        settledAs.push([record.responseId, record.status, record.usage?.totalTokens ?? null]);
        return { responseId: record.responseId, settledInto: runId };
      },
    });
    const source = { ids: () => records.keys(), records: (id: number) => records.get(id) ?? [], changing: () => false };
    // The create and a poll that finds it running: both ended, yet the response is not finished.
    for (const e of exchanges.slice(0, 2)) records.set(e.id, normalizeExchange(e).responses);
    threading.thread([1, 2], source);
    expect(settledAs).toEqual([]);
    // The poll that finds it done: it settles once, as that poll left it; the listing after it changes nothing.
    for (const e of exchanges.slice(2)) records.set(e.id, normalizeExchange(e).responses);
    const runs = threading.thread([3, 4], source);
    expect(settledAs).toEqual([['resp_bg', 'completed', 600]]);
    expect(outline(runs)).toEqual(outline(threadRuns([...records.values()].flat())));
  });
});
