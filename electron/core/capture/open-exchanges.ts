// The proxy's exchanges in flight, HTTP and WebSocket alike, so that a clean shutdown ends
// every one of them before the recording closes: each either finishes within the grace
// period or is cut short by its forwarder, which stops relaying and records an end saying
// so. Waiting for the sockets alone is not enough: a server's 'close' comes a turn before
// its sockets' own, and a relayed WebSocket still has its upstream side to close, so ends
// recorded from those events came after the recorder's last flush and were lost, with the
// session then marked closed and nothing left to repair them.
//
// The end a shutdown records reads like the one interrupted-session.ts gives an exchange
// that a crash left open: state `proxy_error`, and a note that says why.

/** The note of an exchange cut short by a clean shutdown. */
export const SHUTDOWN_ERROR =
  'Loupe shut down before this exchange ended (it was still open when the shutdown grace period ran out); what arrived until then is kept';

/**
 * How long a WebSocket cut short has for its close handshake before it is dropped. Both
 * peers are local or a round trip away, so a second is plenty; a peer that does not answer
 * must not hold the shutdown for ws's own 30 s.
 */
export const CLOSE_HANDSHAKE_MS = 1_000;

/** Ends an exchange now: stop relaying, tell both sides, record an end with `reason` as its note. */
export type CutShort = (reason: string) => void;

export interface Drained {
  /** Exchanges that were still open when the grace period ran out, and were cut short. */
  cutShort: number;
  /** Exchanges that recorded no end even when cut short (a fault in their forwarder). */
  stillOpen: number;
}

interface Entry {
  cutShort: CutShort;
}

export class OpenExchanges {
  private readonly open = new Set<Entry>();
  private onEmpty: (() => void) | null = null;
  private cutting = false;

  /**
   * Lists an exchange as open; the returned function takes it off once its end is recorded.
   * `cutShort` is only ever called in a later turn, once the forwarder has set everything up.
   */
  add(cutShort: CutShort): () => void {
    const entry: Entry = { cutShort };
    this.open.add(entry);
    // Begun after the cut (a keep-alive connection's next request, read during shutdown):
    // it gets no grace period of its own.
    if (this.cutting) queueMicrotask(() => this.cut(entry));
    return () => {
      if (this.open.delete(entry) && this.open.size === 0) this.onEmpty?.();
    };
  }

  get size(): number {
    return this.open.size;
  }

  /**
   * Waits up to `graceMs` for every open exchange to end by itself, cuts short the rest,
   * then waits for their ends (a WebSocket's close handshake takes a round trip).
   */
  async drain(graceMs: number): Promise<Drained> {
    await this.whenEmpty(graceMs);
    const rest = [...this.open];
    this.cutting = true;
    for (const entry of rest) this.cut(entry);
    await this.whenEmpty(2 * CLOSE_HANDSHAKE_MS);
    return { cutShort: rest.length, stillOpen: this.open.size };
  }

  private cut(entry: Entry): void {
    if (!this.open.has(entry)) return;
    try {
      entry.cutShort(SHUTDOWN_ERROR);
    } catch {
      // Its end is then missing: drain() counts it as still open, and the recording's
      // session stays marked open so the next start gives it one (interrupted-session.ts).
    }
  }

  private whenEmpty(ms: number): Promise<void> {
    if (!this.open.size) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.onEmpty = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.onEmpty = done;
    });
  }
}
