// A node's item whole. The run's skeleton (ADR 33) cuts strings past TEXT_PREVIEW_CHARS;
// an item it cut is asked for (`items.get`) when the inspector shows it, and kept for as
// long as the run's items are (the cut item object is the key).
import { useContext, useEffect, useState } from 'react';
import type { GraphNode } from '../../shared/trace/graph/types.js';
import type { ResponseRecord, TraceItem } from '../../shared/trace/types.js';
import { ControllerContext } from '../app/controller-context.js';

const whole = new WeakMap<TraceItem, TraceItem>();

export type FullItem = { item: TraceItem; state: 'whole' | 'loading' | 'failed'; error?: string };

export function useFullItem(
  runId: string | null,
  node: GraphNode | undefined,
  record: ResponseRecord | undefined,
): FullItem | null {
  const api = useContext(ControllerContext)?.api ?? null;
  const item = node?.item;
  const isCut = !!item && !!item.cut;
  const [, loaded] = useState(0);
  const [error, setError] = useState<{ item: TraceItem; message: string } | null>(null);
  useEffect(() => {
    if (!isCut || !item || !record || !runId || !api || whole.has(item)) return;
    const inInput = record.request.input.indexOf(item);
    const part = inInput >= 0 ? 'input' : 'output';
    const index = inInput >= 0 ? inInput : record.output.indexOf(item);
    if (index < 0) return;
    let live = true;
    api
      .invoke('items.get', { runId, exchangeId: record.exchangeId, responseId: record.responseId, part, index })
      .then((full) => {
        whole.set(item, full);
        if (live) loaded((n) => n + 1);
      })
      .catch((err: unknown) => live && setError({ item, message: err instanceof Error ? err.message : String(err) }));
    return () => {
      live = false;
    };
  }, [api, runId, item, isCut, record]);
  if (!item) return null;
  if (!isCut) return { item, state: 'whole' };
  const full = whole.get(item);
  if (full) return { item: full, state: 'whole' };
  if (error?.item === item) return { item, state: 'failed', error: error.message };
  return { item, state: 'loading' };
}
