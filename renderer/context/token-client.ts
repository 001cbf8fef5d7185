// The page's side of the token worker: one worker for the page, with requests answered in
// order. The page starts it as soon as it has painted (startTokenWorker), so the
// tokenizer's tables (~250 ms to load) are in by the time a run has loaded and its Context
// tab is opened; the main thread never loads them. Where workers are missing (the
// renderer's jsdom tests) the tokenizer loads on demand in the page instead, still out of
// the main bundle.
let worker: Worker | null | undefined;
let next = 0;
const waiting = new Map<number, (counts: number[]) => void>();

/** Starts the worker (and so the tokenizer's loading) if it is not running yet. */
export function startTokenWorker(): void {
  start();
}

function start(): Worker | null {
  if (worker !== undefined) return worker;
  if (typeof Worker === 'undefined') return (worker = null);
  worker = new Worker(new URL('./token-worker.ts', import.meta.url), { type: 'module' });
  worker.onmessage = (e: MessageEvent<{ id: number; counts: number[] }>) => {
    waiting.get(e.data.id)?.(e.data.counts);
    waiting.delete(e.data.id);
  };
  return worker;
}

export async function countTokens(texts: string[]): Promise<number[]> {
  const w = start();
  if (w === null) {
    const { countO200k } = await import('../../shared/context/o200k.js');
    return texts.map(countO200k);
  }
  const id = next++;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    w.postMessage({ id, texts });
  });
}
