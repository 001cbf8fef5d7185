// One response's counted context for a component: shown at once with the counts known,
// and again when the worker has counted the rest.
import { useEffect, useMemo, useState } from 'react';
import type { CacheMiss } from '../../shared/context/cache-miss.js';
import type { ContextTokens } from '../../shared/context/context-tokens.js';
import type { RunView } from '../model/run-view.js';
import { contextModel } from './context-model.js';

export function useContextTokens(
  view: RunView | null,
  index: number | null,
): { tokens: ContextTokens | null; miss: CacheMiss | null } {
  const [counted, setCounted] = useState(0);
  const model = view === null ? null : contextModel(view);
  const result = useMemo(() => {
    if (model === null || index === null || index < 0 || index >= model.view.run.responses.length)
      return { tokens: null, miss: null };
    return { tokens: model.tokens(index), miss: model.cacheMiss(index) };
    // `counted` changes when counts arrive: the same response is counted again.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `counted` is the signal to count again, not an input
  }, [model, index, counted]);
  const pending = (result.tokens?.pending ?? false) || (result.tokens !== null && model !== null && model.waiting);
  useEffect(() => {
    if (model === null || !pending) return;
    let live = true;
    void model.fill().then(() => live && setCounted((n) => n + 1));
    return () => {
      live = false;
    };
  }, [model, pending, counted]);
  return result;
}

/** Starts counting the run's texts while the user looks at something else. */
export function useWarmContext(view: RunView | null): void {
  useEffect(() => {
    if (view !== null) void contextModel(view).warm();
  }, [view]);
}
