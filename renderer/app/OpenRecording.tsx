// Opening another `.loupe` file: a path on the machine that runs Loupe, or (in the headless
// UI, whose browser may be on another machine) a file from this one, uploaded to Loupe's. The
// file is opened read-only; "Back to the live recording" returns to what the proxy is writing.
import { useState } from 'react';
import { Modal } from '../lib/Modal.js';
import { useAppStore } from '../state/app-store.js';
import { useUiStore } from '../state/ui-store.js';
import { useController } from './controller-context.js';

export function OpenRecording() {
  const open = useUiStore((s) => s.dialog === 'open-recording');
  if (!open) return null;
  return <OpenRecordingDialog />;
}

function OpenRecordingDialog() {
  const controller = useController();
  const openDialog = useUiStore((s) => s.openDialog);
  const current = useAppStore((s) => s.info?.recording ?? null);
  const livePath = useAppStore((s) => s.livePath);
  const [path, setPath] = useState('');
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const run = (opening: () => Promise<void>) => {
    setState({ busy: true, error: null });
    opening()
      .then(() => openDialog(null))
      .catch((err: Error) => setState({ busy: false, error: err.message }));
  };
  const submit = (file: string) => {
    if (!file.trim()) {
      setState({ busy: false, error: 'Type the path of a .loupe file first.' });
      return;
    }
    run(() => controller.openRecording(file.trim()));
  };
  const canUpload = controller.api.upload !== undefined;
  return (
    <Modal title="Open a recording" onClose={() => openDialog(null)} testId="open-recording">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit(path);
        }}
      >
        <label className="block text-[12.5px] text-zinc-600 dark:text-zinc-300" htmlFor="recording-path">
          Path of a <code>.loupe</code> file on the machine running Loupe (absolute, or relative to where it was
          started). It opens read-only.
        </label>
        <div className="mt-2 flex gap-2">
          <input
            id="recording-path"
            data-testid="recording-path"
            type="text"
            spellCheck={false}
            value={path}
            onChange={(e) => setPath(e.target.value)}
            placeholder="/home/me/agent-runs.loupe"
            className="min-w-0 flex-1 rounded border border-zinc-300 bg-white px-2 py-1 font-mono text-[12.5px] outline-none focus:ring-2 focus:ring-blue-500 dark:border-zinc-700 dark:bg-zinc-950"
          />
          <button
            type="submit"
            disabled={state.busy}
            data-testid="recording-open"
            className="rounded bg-blue-600 px-3 py-1 text-[12.5px] font-medium text-white hover:bg-blue-700 disabled:opacity-50"
          >
            {state.busy ? 'Opening…' : 'Open'}
          </button>
        </div>
        {canUpload && (
          <div className="mt-3 border-t border-zinc-200 pt-3 text-[12.5px] text-zinc-600 dark:border-zinc-800 dark:text-zinc-300">
            <label htmlFor="recording-upload" className="block">
              Or a file on this computer: it is copied to the machine running Loupe (for as long as it runs) and opened
              read-only.
            </label>
            <input
              id="recording-upload"
              data-testid="recording-upload"
              type="file"
              accept=".loupe,.sqlite,.db,application/vnd.sqlite3,application/octet-stream"
              disabled={state.busy}
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) run(() => controller.uploadRecording(file));
              }}
              className="mt-2 block w-full text-[12.5px] file:mr-2 file:rounded file:border file:border-zinc-300 file:bg-white file:px-2 file:py-1 file:text-[12.5px] dark:file:border-zinc-700 dark:file:bg-zinc-900"
            />
            {state.busy && <p className="mt-1 text-zinc-500">Opening…</p>}
          </div>
        )}
        {state.error && (
          <p
            role="alert"
            data-testid="recording-error"
            className="mt-2 break-words text-[12.5px] text-red-600 dark:text-red-400"
          >
            Could not open it: {state.error}
          </p>
        )}
      </form>
      {current && (
        <p className="mt-3 break-all text-[11.5px] text-zinc-500">
          Showing {current.live ? 'the live recording' : 'a recording read-only'}: {current.path}
        </p>
      )}
      {current && !current.live && livePath && (
        <button
          type="button"
          onClick={() => submit(livePath)}
          data-testid="recording-back-live"
          className="mt-2 rounded border border-zinc-300 px-2 py-1 text-[12px] hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
        >
          Back to the live recording
        </button>
      )}
    </Modal>
  );
}
