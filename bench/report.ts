// Prints benchmark results as the README shows them: figures, ratios and pass/fail
// against the capture and trace-model targets.
import type { CaptureBenchReport } from './capture-bench.js';
import type { LibraryBenchReport } from './library-bench.js';
import type { TraceBenchReport } from './trace-bench.js';

const ms = (n: number) => `${n.toFixed(2)} ms`;
const verdict = (ok: boolean) => (ok ? 'meets target' : 'MISSES target');

/**
 * Loupe's overhead as a multiple of bare's. A ratio only means something when bare added
 * time: at p99 the tails of 2,400 streams can put bare's below direct's, and dividing by
 * that once printed -8880310000.01x. Then the two overheads are printed instead.
 */
export function overheadRatio(loupe: number, bare: number): string {
  if (bare > 0) return `${(loupe / bare).toFixed(2)}x`;
  return `n/a (bare ${ms(bare)}, loupe ${ms(loupe)} over direct)`;
}

export function printCapture(r: CaptureBenchReport): void {
  const out: string[] = [
    '',
    'Capture: direct vs bare Node pass-through vs Loupe (recording everything); realistic also times a raw TCP relay, the floor of any hop',
    '',
  ];
  for (const row of r.realistic) {
    out.push(
      `realistic, ${row.concurrency} concurrent streams (${row.samples} streams per target; 50 ms TTFT, 40 events 5 ms apart)`,
    );
    out.push(
      `  TTFB p50  direct ${ms(row.ttfb.direct.p50)}  tcp ${ms(row.ttfb.tcp.p50)}  bare ${ms(row.ttfb.bare.p50)}  loupe ${ms(row.ttfb.loupe.p50)}`,
    );
    out.push(
      `  TTFB p99  direct ${ms(row.ttfb.direct.p99)}  tcp ${ms(row.ttfb.tcp.p99)}  bare ${ms(row.ttfb.bare.p99)}  loupe ${ms(row.ttfb.loupe.p99)}`,
    );
    out.push(
      `  overhead over direct: tcp p50 ${ms(row.overhead.tcp.p50)}; bare p50 ${ms(row.overhead.bare.p50)} p99 ${ms(row.overhead.bare.p99)}; loupe p50 ${ms(row.overhead.loupe.p50)} p99 ${ms(row.overhead.loupe.p99)}`,
    );
    if (row.concurrency === 10) {
      out.push(`  target: loupe adds <= 1 ms p50: ${verdict(row.overhead.loupe.p50 <= 1)}`);
    } else {
      out.push(
        `  loupe/bare overhead ratio: p50 ${overheadRatio(row.overhead.loupe.p50, row.overhead.bare.p50)}, p99 ${overheadRatio(row.overhead.loupe.p99, row.overhead.bare.p99)}`,
      );
      out.push(
        `  target: loupe overhead within 1.1x of bare's: p50 ${verdict(row.overhead.loupe.p50 <= 1.1 * row.overhead.bare.p50)}, p99 ${verdict(row.overhead.loupe.p99 <= 1.1 * row.overhead.bare.p99)}`,
      );
    }
  }
  const s = r.saturation.eventsPerSec;
  out.push(
    '',
    `saturation, 20 streams of 200 events with no gaps always in flight (60 per block, blocks interleaved; ${r.saturation.rounds} rounds, ${(r.saturation.loupeMs / 1000).toFixed(1)} s of Loupe's)`,
  );
  out.push(
    `  events/s  direct ${s.direct.toFixed(0)}  bare ${s.bare.toFixed(0)}  loupe ${s.loupe.toFixed(0)}  loupe serve ${s.serve.toFixed(0)}`,
  );
  out.push(
    `  loupe/bare ${r.saturation.loupeOverBare.toFixed(2)}x  target >= 0.85x: ${verdict(r.saturation.loupeOverBare >= 0.85)}`,
  );
  out.push(
    `  loupe serve (recording, plus the API service the UI reads, in its own thread)/bare ${r.saturation.serveOverBare.toFixed(2)}x  (no target: what \`loupe serve\` and the app pay)`,
  );
  const sm = r.saturation.serveMemory;
  out.push(
    `  loupe serve's RSS after ${sm.streams} streams: ${sm.rssMb.toFixed(0)} MB (no target; under load the service's heap holds garbage it gives back about 20 s after traffic stops)`,
  );
  const w = r.saturation.loupeWrittenMs;
  const d = r.saturation.loupeDerivedMs;
  out.push(
    `  after each Loupe block: on disk ${w.p50.toFixed(1)} ms later (max ${w.max.toFixed(1)}, counted in its rate); derived and checkpointed ${d.p50.toFixed(0)} ms later (max ${d.max.toFixed(0)}, before the next block)`,
  );
  const rp = r.saturation.replay;
  out.push(
    `  replay (loupe replay answering ${rp.rounds} rounds of Loupe's recorded saturation streams, paired with live blocks)/loupe live ${rp.replayOverLoupe.toFixed(2)}x` +
      `  (${Math.round(rp.eventsPerSec).toLocaleString('en-US')} against ${Math.round(rp.loupeEventsPerSec).toLocaleString('en-US')} events/s, ${rp.misses} misses)  target >= 1.00x: ${verdict(rp.replayOverLoupe >= 1 && rp.misses === 0)}`,
  );
  const cpu = r.saturation.cpuUsPerEvent;
  if (cpu.bare && cpu.loupe) {
    const us = (n: number) => `${n.toFixed(2)} µs`;
    out.push(
      `  CPU per event: bare relay thread ${us(cpu.bare.main)}, other threads ${us(cpu.bare.others)}; loupe relay thread ${us(cpu.loupe.main)}, other threads (store writer, V8 helpers) ${us(cpu.loupe.others)}`,
    );
  }
  out.push(
    '',
    `memory after ${r.memory.streams} streamed responses through Loupe: RSS ${r.memory.rssMb.toFixed(0)} MB (peak ${r.memory.peakRssMb.toFixed(0)} MB)  target <= 200 MB: ${verdict(r.memory.rssMb <= 200 && r.memory.peakRssMb <= 200)}`,
  );
  if (r.variants) {
    out.push('', 'variants of Loupe, measured in the same run (--compare):');
    for (const [name, v] of Object.entries(r.variants)) {
      const over = (c: number) => r.realistic.find((row) => row.concurrency === c)?.overhead[name as 'loupe'];
      const o10 = over(10);
      const o50 = over(50);
      const bare50 = r.realistic.find((row) => row.concurrency === 50)?.overhead.bare;
      out.push(
        `  ${name}: 10 streams p50 +${ms(o10?.p50 ?? NaN)}; 50 streams p50 ${overheadRatio(o50?.p50 ?? NaN, bare50?.p50 ?? NaN)} p99 ${overheadRatio(o50?.p99 ?? NaN, bare50?.p99 ?? NaN)} of bare's overhead; saturation ${v.overBare.toFixed(2)}x bare; RSS ${v.rssMb.toFixed(0)} MB after ${v.streams} streams`,
      );
    }
  }
  if (r.cpu) {
    out.push('', 'CPU of each relay (µs): main thread per realistic stream; per saturated event, main + other threads');
    for (const [name, c] of Object.entries(r.cpu)) {
      const e = c.perEventUs ?? (name === 'bare' || name === 'loupe' ? r.saturation.cpuUsPerEvent[name] : null);
      out.push(
        `  ${name}: ${c.perStreamUs.toFixed(0)} per stream; ${e ? `${e.main.toFixed(2)} + ${e.others.toFixed(2)} per event` : 'n/a'}`,
      );
    }
  }
  const st = r.store;
  out.push(
    `store: ${st.exchangesStored} complete exchanges, ${st.eventsStored} events stored of ${st.eventsReceivedViaLoupe} relayed, ${st.lost} lost: ${verdict(st.eventsStored === st.eventsReceivedViaLoupe && st.lost === 0)}`,
  );
  process.stdout.write(`${out.join('\n')}\n`);
}

export function printTrace(r: TraceBenchReport): void {
  const t = r.ms;
  const out: string[] = [
    '',
    `Trace model: ${r.exchanges} exchanges, ${r.events.toLocaleString('en-US')} stream events, ${r.items.toLocaleString('en-US')} items -> ${r.nodes} nodes, ${r.edges} edges (median of ${r.rounds} rounds)`,
    `  normalize ${ms(t.normalize)}  thread ${ms(t.thread)}  graph ${ms(t.graph)}  layout ${ms(t.layout)}  (timeline, not in the pipeline: ${ms(t.timeline)})`,
    `  pipeline ${ms(t.total)}  target < 1000 ms: ${verdict(t.total < 1000)}`,
    `  layout of ${r.nodes} items ${ms(t.layout)}  target < 50 ms: ${verdict(t.layout < 50)}`,
    `  diff, not in the pipeline: the run aligned with itself ${ms(t.compare)} (${(t.compare / t.graph).toFixed(2)}x its graph), the last request's changes ${ms(t.changes)}`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

/** Prints the library case; false when a target is missed (the bench then exits non-zero). */
export function printLibrary(r: LibraryBenchReport): boolean {
  const readyOk = r.ratios.ready <= 2;
  const searchOk = r.ratios.search <= 2 && r.large.searchMs < 200;
  const row = (f: LibraryBenchReport['small']) =>
    `${f.requests.toLocaleString('en-US')} requests in ${f.runs} runs: ready ${ms(f.readyMs)}, first search ${ms(f.searchMs)}`;
  const out = [
    '',
    `Library: start-up and first full-text search, a fresh service each (median of ${r.rounds} rounds)`,
    `  ${row(r.small)}`,
    `  ${row(r.large)} (file ${r.largeFileMb.toFixed(0)} MB)`,
    `  ready large/small ${r.ratios.ready.toFixed(2)}x  target <= 2x: ${verdict(readyOk)}`,
    `  first search large/small ${r.ratios.search.toFixed(2)}x, ${ms(r.large.searchMs)}  target <= 2x and < 200 ms: ${verdict(searchOk)}`,
    `  (the scan it replaced, on the large library without its index: ${ms(r.largeScanSearchMs)})`,
    `  (recorded through the proxy with the openai SDK: ${r.recordSeconds.small.toFixed(1)} s / ${r.recordSeconds.large.toFixed(1)} s)`,
  ];
  if (!readyOk || !searchOk) out.push('  LIBRARY TARGET MISSED: the bench fails');
  process.stdout.write(`${out.join('\n')}\n`);
  return readyOk && searchOk;
}
