// Replay controls: step back/forward by item or by event, play/pause at 1×–50× or instant,
// a scrubber with a tick per response, and "follow live". Test hooks: data-replay="back",
// "forward", "play", "scrubber", "follow".
import { useEffect } from 'react';
import { Icon } from '../lib/Icon.js';
import { formatUs } from '../lib/format.js';
import { SPEEDS, type Speed, type StepMode } from '../state/replay-logic.js';
import { useRunStore } from '../state/run-store.js';
import { useRunActivity } from '../runs/use-run-activity.js';
import { useRunsStore } from '../state/runs-store.js';

/** Drives a playing replay with animation frames; stops when it stops. */
function usePlayClock(): void {
  const playing = useRunStore((s) => s.replay.playing);
  const tick = useRunStore((s) => s.tick);
  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    let frame = requestAnimationFrame(function loop(now) {
      tick(now - last);
      last = now;
      frame = requestAnimationFrame(loop);
    });
    return () => cancelAnimationFrame(frame);
  }, [playing, tick]);
}

const btn =
  'flex h-7 w-7 items-center justify-center rounded border border-zinc-300 bg-white text-zinc-700 hover:bg-zinc-100 disabled:opacity-40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200 dark:hover:bg-zinc-800';

export function ReplayBar() {
  usePlayClock();
  const replay = useRunStore((s) => s.replay);
  const model = useRunStore((s) => s.view?.replay);
  const runId = useRunStore((s) => s.runId);
  // Live through the client's tool time too, not only while a response streams.
  const live = useRunActivity(useRunsStore((s) => (runId ? s.byId[runId] : undefined)))?.active ?? false;
  const actions = useRunStore.getState();
  if (!model) return null;
  const n = model.steps.length;
  const last = Math.max(0, n - 1);
  const current = model.steps[replay.step];
  const ticks = model.responseStartAt.filter((s) => Number.isFinite(s));
  return (
    <div
      className="border-t border-zinc-200 bg-white px-3 pb-2 pt-1 dark:border-zinc-800 dark:bg-zinc-950"
      data-testid="replay-bar"
    >
      <div className="relative mb-1">
        <input
          type="range"
          data-replay="scrubber"
          aria-label="Replay position"
          min={0}
          max={last}
          value={replay.step}
          onChange={(e) => actions.seek(Number(e.target.value))}
          className="relative z-10 w-full accent-blue-600"
        />
        <div className="pointer-events-none absolute inset-x-[7px] top-0 h-full">
          {last > 0 &&
            ticks.map((s, i) => (
              <span
                key={i}
                title={`response ${i + 1}`}
                className="absolute top-0 h-1.5 w-px bg-zinc-400 dark:bg-zinc-500"
                style={{ left: `${(s / last) * 100}%` }}
              />
            ))}
        </div>
      </div>
      <div className="flex items-center gap-2">
        <button
          type="button"
          className={btn}
          data-replay="back"
          aria-label="Step back (←)"
          title="Step back (←)"
          disabled={replay.step <= 0}
          onClick={actions.stepBack}
        >
          <Icon name="back" />
        </button>
        <button
          type="button"
          className={`${btn} ${replay.playing ? '!border-blue-500 !text-blue-600' : ''}`}
          data-replay="play"
          aria-label={replay.playing ? 'Pause (space)' : 'Play (space)'}
          title={replay.playing ? 'Pause (space)' : 'Play (space)'}
          onClick={actions.togglePlay}
        >
          <Icon name={replay.playing ? 'pause' : 'play'} />
        </button>
        <button
          type="button"
          className={btn}
          data-replay="forward"
          aria-label="Step forward (→)"
          title="Step forward (→)"
          disabled={replay.step >= last}
          onClick={actions.stepForward}
        >
          <Icon name="forward" />
        </button>
        <select
          aria-label="Step by"
          value={replay.mode}
          onChange={(e) => actions.setMode(e.target.value as StepMode)}
          className="rounded border border-zinc-300 bg-white px-1 py-1 text-[11.5px] dark:border-zinc-700 dark:bg-zinc-900"
        >
          <option value="item">by item</option>
          <option value="event">by event</option>
        </select>
        <select
          aria-label="Speed"
          data-replay="speed"
          value={String(replay.speed)}
          onChange={(e) =>
            actions.setSpeed((e.target.value === 'instant' ? 'instant' : Number(e.target.value)) as Speed)
          }
          className="rounded border border-zinc-300 bg-white px-1 py-1 text-[11.5px] dark:border-zinc-700 dark:bg-zinc-900"
        >
          {SPEEDS.map((s) => (
            <option key={String(s)} value={String(s)}>
              {s === 'instant' ? 'instant' : `${s}×`}
            </option>
          ))}
        </select>
        <div
          className="min-w-0 flex-1 truncate text-[11.5px] tabular-nums text-zinc-600 dark:text-zinc-400"
          data-testid="replay-position"
          title={current?.label}
        >
          {n ? `${replay.step + 1}/${n} · ${formatUs(current?.tUs ?? 0)} · ${current?.label ?? ''}` : 'no steps'}
        </div>
        <button
          type="button"
          data-replay="follow"
          aria-pressed={replay.follow}
          onClick={actions.followLive}
          title="Jump to the newest step and stay there"
          className={`flex items-center gap-1 rounded border px-2 py-1 text-[11.5px] ${
            replay.follow
              ? 'border-blue-500 bg-blue-50 text-blue-700 dark:bg-blue-950 dark:text-blue-300'
              : 'border-zinc-300 text-zinc-600 hover:bg-zinc-100 dark:border-zinc-700 dark:text-zinc-300 dark:hover:bg-zinc-800'
          }`}
        >
          <Icon name="live" className={`h-3.5 w-3.5 ${live ? 'text-blue-500' : ''}`} />
          {live ? 'Follow live' : 'Latest'}
        </button>
      </div>
    </div>
  );
}
