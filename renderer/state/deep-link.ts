// The view in the URL's fragment, so a reload or a shared link opens the same run with the
// same node or response selected: `#run=<id>&node=<id>` or `#run=<id>&response=<n>` (n
// counts from 1, as the UI does). The fragment never reaches the server and leaves the
// query (the headless UI's token) alone.
import type { Selection } from './run-logic.js';

export interface DeepLink {
  runId: string | null;
  selection: Selection;
}

export function parseLink(hash: string): DeepLink {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const runId = params.get('run') || null;
  if (!runId) return { runId: null, selection: null };
  const node = params.get('node');
  if (node) return { runId, selection: { kind: 'node', id: node } };
  const response = Number(params.get('response'));
  if (Number.isInteger(response) && response >= 1)
    return { runId, selection: { kind: 'response', index: response - 1 } };
  return { runId, selection: null };
}

export function formatLink(link: DeepLink): string {
  if (!link.runId) return '';
  const params = new URLSearchParams({ run: link.runId });
  if (link.selection?.kind === 'node') params.set('node', link.selection.id);
  else if (link.selection?.kind === 'response') params.set('response', String(link.selection.index + 1));
  return `#${params.toString()}`;
}
