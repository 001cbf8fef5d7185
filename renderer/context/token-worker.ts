// Counts o200k_base tokens off the main thread: the tokenizer's tables take a moment to load
// and a long run holds megabytes of text. Messages: `{id, texts}` in, `{id, counts}` out.
import { countO200k } from '../../shared/context/o200k.js';

interface Scope {
  onmessage: ((e: MessageEvent<{ id: number; texts: string[] }>) => void) | null;
  postMessage(message: { id: number; counts: number[] }): void;
}

const scope = self as unknown as Scope;
// The first count builds the encoder's lookup tables: done on start, not on the first request.
countO200k('warm up');
scope.onmessage = (e) => scope.postMessage({ id: e.data.id, counts: e.data.texts.map(countO200k) });
