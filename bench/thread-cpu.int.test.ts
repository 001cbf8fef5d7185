import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { cpuSince, threadCpu } from './thread-cpu.js';

const spin = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
};

describe.skipIf(process.platform !== 'linux')('CPU per thread of a process', () => {
  it('counts the main thread’s work as main and a worker’s as the others', async () => {
    const start = threadCpu(process.pid);
    spin(60);
    const afterMain = threadCpu(process.pid);
    const main = cpuSince(start, afterMain)!;
    expect(main.mainMs).toBeGreaterThanOrEqual(50);

    // The worker spins, says so and stays alive: an ended thread takes its time with it.
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       const until = performance.now() + 60; while (performance.now() < until) {}
       parentPort.postMessage('spun'); setInterval(() => {}, 1000);`,
      { eval: true },
    );
    try {
      await new Promise((resolve) => worker.once('message', resolve));
      const inWorker = cpuSince(afterMain, threadCpu(process.pid))!;
      expect(inWorker.othersMs).toBeGreaterThanOrEqual(50);
      expect(inWorker.mainMs).toBeLessThan(inWorker.othersMs);
    } finally {
      await worker.terminate();
    }
  });

  it('has no figure for a process that is not there', () => {
    expect(threadCpu(2 ** 22 + 12_345)).toBeNull();
    expect(cpuSince(null, threadCpu(process.pid))).toBeNull();
  });
});
