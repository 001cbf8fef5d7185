// The request a response is measured against (its cache verdict, its changes): the one it
// continues, else the one sent before it.
import type { Run } from '../trace/thread/thread.js';

export function previousRequest(run: Run, index: number): { index: number; basis: 'parent' | 'previous' } | null {
  const parent = run.links[index]?.parent;
  if (parent != null) return { index: parent, basis: 'parent' };
  return index > 0 ? { index: index - 1, basis: 'previous' } : null;
}
