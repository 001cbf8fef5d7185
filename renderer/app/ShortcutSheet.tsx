// The list of keyboard shortcuts, opened with `?`.
import { Modal } from '../lib/Modal.js';
import { useUiStore } from '../state/ui-store.js';
import { SHORTCUTS } from './shortcuts.js';

export function ShortcutSheet() {
  const open = useUiStore((s) => s.dialog === 'shortcuts');
  const openDialog = useUiStore((s) => s.openDialog);
  if (!open) return null;
  return (
    <Modal title="Keyboard shortcuts" onClose={() => openDialog(null)} testId="shortcut-sheet">
      <table className="w-full text-[12.5px]">
        <tbody>
          {SHORTCUTS.map(([keys, what]) => (
            <tr key={keys} className="border-b border-zinc-100 last:border-0 dark:border-zinc-800">
              <td className="w-20 py-1.5 pr-3 align-top">
                <kbd className="whitespace-nowrap rounded border border-zinc-300 bg-zinc-50 px-1.5 py-0.5 font-mono text-[11.5px] dark:border-zinc-600 dark:bg-zinc-800">
                  {keys}
                </kbd>
              </td>
              <td className="py-1.5 text-zinc-700 dark:text-zinc-300">{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-[11.5px] text-zinc-500">
        Shortcuts work wherever the focus is, except while you type in a text field.
      </p>
    </Modal>
  );
}
