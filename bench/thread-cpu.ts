// CPU time a child process spent, split into its main thread (the relay's event loop) and
// every other thread (Loupe's store writer, V8's compiler and GC helpers, libuv's pool).
// Read from /proc/<pid>/task/*/schedstat, so Linux only; elsewhere there is no figure.
import fs from 'node:fs';

export interface ThreadCpu {
  mainMs: number;
  othersMs: number;
}

export function threadCpu(pid: number): ThreadCpu | null {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  const cpu: ThreadCpu = { mainMs: 0, othersMs: 0 };
  for (const tid of tasks) {
    let ns: number;
    try {
      // The first field is the time the thread has run, in nanoseconds.
      ns = Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      continue; // the thread ended between the listing and the read
    }
    if (tid === String(pid)) cpu.mainMs += ns / 1e6;
    else cpu.othersMs += ns / 1e6;
  }
  return cpu;
}

/** What ran between two readings; a thread that ended in between takes its time with it. */
export function cpuSince(before: ThreadCpu | null, after: ThreadCpu | null): ThreadCpu | null {
  if (!before || !after) return null;
  return { mainMs: after.mainMs - before.mainMs, othersMs: Math.max(0, after.othersMs - before.othersMs) };
}
