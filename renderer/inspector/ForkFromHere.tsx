// "Fork from here…": the inspector's button (and Shift+F) opens an editor on the selected
// item; Loupe then makes a fork plan on the running proxy (`forks.create`) and shows the
// base URL to run the unchanged app against, with snippets to copy. Steps before the
// item's are answered from the recording, its step with the edit, the rest live.
import { useMemo, useState } from 'react';
import type { ForkInfo } from '../../shared/api/types.js';
import { useController } from '../app/controller-context.js';
import { CopyButton } from '../lib/CopyButton.js';
import { Icon } from '../lib/Icon.js';
import { Modal } from '../lib/Modal.js';
import { useAppStore } from '../state/app-store.js';
import { useRunStore } from '../state/run-store.js';
import { useUiStore } from '../state/ui-store.js';
import { changedEdits, forkTarget, type ForkField, type ForkTarget } from './fork-fields.js';

export function ForkFromHereButton() {
  const openDialog = useUiStore((s) => s.openDialog);
  return (
    <button
      type="button"
      onClick={() => openDialog('fork')}
      data-testid="fork-from-here"
      title="Re-run the app from this step with this item edited (Shift+F)"
      className="inline-flex shrink-0 items-center gap-1 whitespace-nowrap rounded border border-zinc-300 px-2 py-0.5 text-[11.5px] text-zinc-700 hover:bg-zinc-100 dark:border-zinc-600 dark:text-zinc-200 dark:hover:bg-zinc-800"
    >
      <Icon name="fork" className="h-3.5 w-3.5" />
      Fork from here…
    </button>
  );
}

/** Mounted once (App.tsx): open while the `fork` dialog is and a node is selected. */
export function ForkDialog() {
  const open = useUiStore((s) => s.dialog === 'fork');
  const nodeId = useRunStore((s) => (s.selection?.kind === 'node' ? s.selection.id : null));
  const node = useRunStore((s) => (nodeId ? s.view?.nodeById[nodeId] : undefined));
  const record = useRunStore((s) => (node ? s.detail?.responses[node.response] : undefined));
  const runId = useRunStore((s) => s.runId);
  const target = useMemo(() => (node && record ? forkTarget(node, record) : null), [node, record]);
  if (!open || !target || !runId || !node) return null;
  return <ForkEditor key={node.id} runId={runId} target={target} />;
}

/** What the plan does, in a sentence: which steps come from the recording and which go live. */
function plainPlan(step: number, responseEdit: boolean): string {
  const before =
    step === 1
      ? ''
      : step === 2
        ? 'Step #1 is answered from the recording; '
        : `Steps #1–#${step - 1} are answered from the recording; `;
  const at = responseEdit ? `step #${step} answers with your edit` : `step #${step} goes live with your edit`;
  const sentence = `${before}${at}; everything after goes live to the proxy’s upstream. The original run is kept.`;
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

function FieldEditor({ field, value, onChange }: { field: ForkField; value: string; onChange: (v: string) => void }) {
  const rows = Math.min(10, Math.max(field.kind === 'json' ? 4 : 2, value.split('\n').length + 1));
  return (
    <label className="mt-2 block text-[12px] text-zinc-600 dark:text-zinc-300">
      <span className="flex items-center gap-2">
        <span className="font-medium">{field.label}</span>
        <code className="truncate text-[10.5px] text-zinc-400" title={field.pointer}>
          {field.pointer}
        </code>
      </span>
      <textarea
        data-fork-field={field.pointer}
        spellCheck={false}
        rows={rows}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={`mt-1 w-full resize-y rounded border border-zinc-300 bg-white px-2 py-1 text-[12.5px] outline-none focus:ring-2 focus:ring-blue-500 dark:border-zinc-700 dark:bg-zinc-950 ${field.kind === 'json' ? 'font-mono' : ''}`}
      />
    </label>
  );
}

function ForkEditor({ runId, target }: { runId: string; target: ForkTarget }) {
  const controller = useController();
  const openDialog = useUiStore((s) => s.openDialog);
  const live = useAppStore((s) => s.info?.recording.live ?? false);
  const [values, setValues] = useState<Record<string, string>>({});
  const [more, setMore] = useState(target.item.length === 0);
  const [state, setState] = useState<{ busy: boolean; error: string | null; fork: ForkInfo | null }>({
    busy: false,
    error: null,
    fork: null,
  });
  const fields = [...target.item, ...(more ? target.request : [])];
  const submit = () => {
    const made = changedEdits(fields, values);
    if ('error' in made) return setState({ busy: false, error: made.error, fork: null });
    setState({ busy: true, error: null, fork: null });
    controller.api
      .invoke('forks.create', { runId, step: target.step, edits: made.edits })
      .then((fork) => setState({ busy: false, error: null, fork }))
      .catch((err: Error) => setState({ busy: false, error: err.message, fork: null }));
  };
  return (
    <Modal title={`Fork from step #${target.step}`} onClose={() => openDialog(null)} testId="fork-dialog">
      {state.fork ? (
        <ForkMade fork={state.fork} />
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <p className="text-[12.5px] text-zinc-600 dark:text-zinc-300">
            {plainPlan(
              target.step,
              fields.some((f) => f.pointer.startsWith('/response')),
            )}
          </p>
          {target.item.length === 0 && (
            <p className="mt-2 text-[12px] text-zinc-500">
              This item has no field to edit here; edit the step&rsquo;s request instead.
            </p>
          )}
          <div className="max-h-[46vh] overflow-y-auto pr-1">
            {fields.map((f) => (
              <FieldEditor
                key={f.pointer}
                field={f}
                value={values[f.pointer] ?? f.value}
                onChange={(v) => {
                  setValues((s) => ({ ...s, [f.pointer]: v }));
                  setState((s) => (s.error ? { ...s, error: null } : s));
                }}
              />
            ))}
          </div>
          {!more && target.request.length > 0 && (
            <button
              type="button"
              onClick={() => setMore(true)}
              data-testid="fork-more"
              className="mt-2 text-[12px] text-blue-600 hover:underline dark:text-blue-400"
            >
              Edit this step&rsquo;s instructions or tool schemas instead…
            </button>
          )}
          {state.error && (
            <p
              role="alert"
              data-testid="fork-error"
              className="mt-2 break-words text-[12.5px] text-red-600 dark:text-red-400"
            >
              {state.error}
            </p>
          )}
          <div className="mt-3 flex items-center gap-2">
            <button
              type="submit"
              disabled={state.busy || !live}
              data-testid="fork-create"
              className="rounded bg-blue-600 px-3 py-1 text-[12.5px] font-medium text-white hover:bg-blue-700 disabled:opacity-50"
            >
              {state.busy ? 'Making the fork…' : 'Make fork plan'}
            </button>
            {!live && (
              <span className="text-[12px] text-zinc-500">
                Forks are made from the live recording, on the running proxy.
              </span>
            )}
          </div>
        </form>
      )}
    </Modal>
  );
}

function ForkMade({ fork }: { fork: ForkInfo }) {
  const shell = `OPENAI_BASE_URL=${fork.baseUrl} node your-agent.js`;
  const js = `new OpenAI({ baseURL: '${fork.baseUrl}' })`;
  return (
    <div data-testid="fork-made" data-fork-id={fork.id}>
      <p className="text-[12.5px] text-zinc-600 dark:text-zinc-300">
        Run your app against this base URL. It is recorded as a new run, listed under the original (step #
        {fork.forkedFrom.step}).
      </p>
      <div className="mt-2 flex items-center gap-2 rounded bg-zinc-100 px-2 py-1.5 dark:bg-zinc-950">
        <code className="min-w-0 flex-1 break-all text-[12.5px]" data-testid="fork-base-url">
          {fork.baseUrl}
        </code>
        <CopyButton text={fork.baseUrl} label="Copy URL" />
      </div>
      {[shell, js].map((snippet) => (
        <div key={snippet} className="mt-2 flex items-start gap-2">
          <pre className="min-w-0 flex-1 overflow-x-auto rounded border border-zinc-200 px-2 py-1.5 text-[11.5px] dark:border-zinc-800">
            {snippet}
          </pre>
          <CopyButton text={snippet} />
        </div>
      ))}
    </div>
  );
}
