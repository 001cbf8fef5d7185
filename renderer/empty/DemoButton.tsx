// "No agent at hand?": plays a scripted demo run (the built-in simulator driven by the real
// SDK through the real proxy) into the live recording, so a newcomer can watch a run
// appear without an API key.
import { useState } from 'react';
import { useController } from '../app/controller-context.js';

const SCENARIOS: Array<[string, string]> = [
  ['support', 'Support agent: three parallel tool calls (Agents SDK)'],
  ['coding', 'Coding session over WebSocket mode, with compaction'],
  ['program', 'Programmatic tool calling: one program, five calls'],
  ['research', 'Multi-agent research: three subagents'],
  ['travel', 'Stateless chat loop beside previous_response_id'],
];

export function DemoButton() {
  const controller = useController();
  const [scenario, setScenario] = useState('support');
  const [state, setState] = useState<{ busy: boolean; message: string | null; error: boolean }>({
    busy: false,
    message: null,
    error: false,
  });
  const start = () => {
    setState({ busy: true, message: null, error: false });
    controller
      .startDemo(scenario)
      .then((r) =>
        setState({
          busy: false,
          message: `Playing the ${r.scenario} demo: its run opens as soon as it starts.`,
          error: false,
        }),
      )
      .catch((err: Error) => setState({ busy: false, message: err.message, error: true }));
  };
  return (
    <div className="mt-6 rounded-lg border border-zinc-200 p-4 text-[13px] dark:border-zinc-800" data-testid="demo">
      <div className="font-medium">No agent at hand? Watch a demo run.</div>
      <p className="mt-1 text-zinc-600 dark:text-zinc-400">
        A built-in simulator plays a realistic agent through this proxy. No API key needed.
      </p>
      <div className="mt-3 flex items-center gap-2">
        <select
          value={scenario}
          onChange={(e) => setScenario(e.target.value)}
          className="min-w-0 flex-1 rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
          aria-label="Demo scenario"
        >
          {SCENARIOS.map(([id, title]) => (
            <option key={id} value={id}>
              {title}
            </option>
          ))}
        </select>
        <button
          type="button"
          onClick={start}
          disabled={state.busy}
          data-testid="demo-start"
          className="rounded bg-blue-600 px-3 py-1 font-medium text-white hover:bg-blue-700 disabled:opacity-50"
        >
          {state.busy ? 'Starting…' : 'Play demo'}
        </button>
      </div>
      {state.message && (
        <p className={`mt-2 ${state.error ? 'text-red-600' : 'text-zinc-600 dark:text-zinc-400'}`} role="status">
          {state.message}
        </p>
      )}
    </div>
  );
}
