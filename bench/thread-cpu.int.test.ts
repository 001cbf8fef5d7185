import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { cpuSince, threadCpu } from './thread-cpu.js';

/** CPU time the calling thread has run, in ms (Linux: its own schedstat). */
const ranMs = () => Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;

/**
 * Spins until this thread has run `ms` of CPU, not `ms` of wall time: on a loaded machine
 * (a CI run beside other work) a thread spinning 60 ms of wall time once got 41 ms of CPU.
 */
const spin = (ms: number) => {
  const until = ranMs() + ms;
  while (ranMs() < until) {
    // busy
  }
};

describe.skipIf(process.platform !== 'linux')('CPU per thread of a process', () => {
  it('counts the main thread’s work as main and a worker’s as the others', async () => {
    const start = threadCpu(process.pid);
    spin(60);
    const afterMain = threadCpu(process.pid);
    const main = cpuSince(start, afterMain)!;
    expect(main.mainMs).toBeGreaterThanOrEqual(60);

    // The worker spins the same way, says so and stays alive: an ended thread takes its
    // time with it.
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       const fs = require('node:fs');
       const ranMs = () => Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
       const until = ranMs() + 60; while (ranMs() < until) {}
       parentPort.postMessage('spun'); setInterval(() => {}, 1000);`,
      { eval: true },
    );
    try {
      await new Promise((resolve) => worker.once('message', resolve));
      const inWorker = cpuSince(afterMain, threadCpu(process.pid))!;
      expect(inWorker.othersMs).toBeGreaterThanOrEqual(60);
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
