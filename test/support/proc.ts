// Linux process facts from /proc, for tests that measure a process tree.
import fs from 'node:fs';

/** The parent pid in /proc/<pid>/stat (the field after the state, past the parenthesised name). */
export function parentOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** The processes whose parent is `pid`. */
export function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (parentOf(Number(entry)) === pid) found.push(Number(entry));
    } catch {
      // gone between the listing and the read
    }
  }
  return found;
}

/** The command line of `pid`, one argument an element. */
export function argsOf(pid: number): string[] {
  return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}
