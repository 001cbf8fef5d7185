// Global shortcuts: ←/→ step, space play/pause, / search, f fit, g/w/t the centre tabs
// (graph, waterfall, Agents trace). Ignored while typing.
import { useEffect } from 'react';
import { useRunStore } from '../state/run-store.js';
import { useUiStore } from '../state/ui-store.js';

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}

export function useKeyboard(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      const run = useRunStore.getState();
      const ui = useUiStore.getState();
      switch (e.key) {
        case 'ArrowLeft':
          if (!run.view) return;
          run.stepBack();
          break;
        case 'ArrowRight':
          if (!run.view) return;
          run.stepForward();
          break;
        case ' ':
          if (!run.view) return;
          run.togglePlay();
          break;
        case '/':
          ui.focusSearch();
          break;
        case 'f':
          ui.setTab('graph');
          ui.requestFit();
          break;
        case 'g':
          ui.setTab('graph');
          break;
        case 'w':
          ui.setTab('waterfall');
          break;
        case 't':
          ui.setTab('trace');
          break;
        default:
          return;
      }
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
