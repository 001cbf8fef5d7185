// Status badges shared by the runs list, run header and inspector.
import type { RunStatus } from '../../shared/api/types.js';

export const STATUS_STYLE: Record<string, string> = {
  completed: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  in_progress: 'bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-300',
  queued: 'bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-300',
  failed: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
  error: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
  incomplete: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300',
  aborted: 'bg-zinc-200 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
  unreadable: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
  cancelled: 'bg-zinc-200 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
};

export const STATUS_NAME: Record<RunStatus, string> = {
  completed: 'completed',
  in_progress: 'running',
  failed: 'failed',
  incomplete: 'incomplete',
  aborted: 'aborted',
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <span
      className={`shrink-0 whitespace-nowrap rounded px-1.5 py-px text-[10.5px] font-medium ${STATUS_STYLE[status] ?? STATUS_STYLE.aborted}`}
    >
      {STATUS_NAME[status as RunStatus] ?? status.replace(/_/g, ' ')}
    </span>
  );
}
