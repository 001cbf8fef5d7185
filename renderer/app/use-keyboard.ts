// Global shortcuts (listed in shortcuts.ts). They work whatever has focus (after a click on
// the scrubber, a button or a select too), except while text is typed into a field.
import { useEffect } from 'react';
import { useCompareStore } from '../compare/compare-store.js';
import { useRunStore } from '../state/run-store.js';
import { useUiStore } from '../state/ui-store.js';
import { isSpaceActivated, isTyping } from './shortcuts.js';

export function useKeyboard(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      const run = useRunStore.getState();
      const ui = useUiStore.getState();
      // While a dialog is open only Escape (and ? to close the sheet) reach the app.
      if (ui.dialog && e.key !== 'Escape' && !(e.key === '?' && ui.dialog === 'shortcuts')) return;
      // A view of the run asked for by its key leaves the comparison.
      if ('fgwt'.includes(e.key) && e.key.length === 1) useCompareStore.getState().closeCompare();
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
        case 'o':
          ui.openDialog('open-recording');
          break;
        case 'F':
          if (run.selection?.kind !== 'node') return;
          ui.openDialog('fork');
          break;
        case 'x':
          if (!run.runId) return;
          useCompareStore.getState().togglePick(run.runId);
          break;
        case 'c':
          useCompareStore.getState().openCompare(run.runId);
          break;
        case '?':
          ui.openDialog(ui.dialog === 'shortcuts' ? null : 'shortcuts');
          break;
        case 'Escape':
          if (ui.dialog) ui.openDialog(null);
          else if (useCompareStore.getState().open) useCompareStore.getState().closeCompare();
          else if (run.selection) run.select(null);
          else return;
          break;
        default:
          return;
      }
      e.preventDefault();
      // Focus stays where it was, but a focused control must not also act on the key
      // (a scrubber moving by one event, a button clicked by space on key up).
      if (e.key === ' ' && isSpaceActivated(e.target)) spaceClaimed = e.target;
    };
    let spaceClaimed: EventTarget | null = null;
    const onKeyUp = (e: KeyboardEvent) => {
      if (e.key === ' ' && spaceClaimed && e.target === spaceClaimed) e.preventDefault();
      if (e.key === ' ') spaceClaimed = null;
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('keyup', onKeyUp);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('keyup', onKeyUp);
    };
  }, []);
}
