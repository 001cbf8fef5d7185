// A WebSocket exchange's frames, one row each, in a scroller that renders only the rows in
// view: a long session carries thousands of frames, and one <pre> of all of them took the
// page seconds to lay out. A row shows one line of its frame; a click opens it whole.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState } from 'react';
import type { FrameView } from '../../shared/api/types.js';
import { CopyButton } from '../lib/CopyButton.js';
import { formatUs } from '../lib/format.js';

const ROW_HEIGHT = 20;

export function framesText(frames: readonly FrameView[]): string {
  return frames.map((f) => `${formatUs(f.tUs).padStart(9)} ${f.from === 'client' ? '→' : '←'} ${f.text}`).join('\n');
}

export function FramesList({ frames }: { frames: FrameView[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read each render, never memoized
  const virtual = useVirtualizer({
    count: frames.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
  });
  const toggle = (i: number) =>
    setOpen((was) => {
      const next = new Set(was);
      if (!next.delete(i)) next.add(i);
      return next;
    });
  return (
    <div>
      <div className="mb-1 flex justify-end">
        <CopyButton text={framesText(frames)} label="Copy all" />
      </div>
      <div
        ref={scroller}
        className="max-h-96 overflow-auto rounded bg-zinc-100 font-mono text-[12px] leading-snug dark:bg-zinc-900"
        data-testid="ws-frames"
      >
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((row) => {
            const f = frames[row.index]!;
            const whole = open.has(row.index);
            return (
              <button
                type="button"
                key={row.key}
                data-index={row.index}
                ref={virtual.measureElement}
                onClick={() => toggle(row.index)}
                aria-expanded={whole}
                title={whole ? 'Show one line' : 'Show the whole frame'}
                className={`absolute left-0 right-0 flex gap-2 px-2.5 py-0.5 text-left hover:bg-zinc-200 dark:hover:bg-zinc-800 ${whole ? 'whitespace-pre-wrap break-all' : 'whitespace-nowrap'}`}
                style={{ transform: `translateY(${row.start}px)` }}
              >
                <span className="shrink-0 tabular-nums text-zinc-500">{formatUs(f.tUs).padStart(9)}</span>
                <span
                  className={`shrink-0 ${f.from === 'client' ? 'text-blue-600 dark:text-blue-400' : 'text-emerald-700 dark:text-emerald-400'}`}
                >
                  {f.from === 'client' ? '→' : '←'}
                </span>
                <span className={whole ? 'min-w-0' : 'min-w-0 truncate'}>
                  {f.opcode === 8 ? `close ${f.text}` : f.text}
                </span>
              </button>
            );
          })}
        </div>
      </div>
    </div>
  );
}
