// The service's `demo.start` hook: plays one scripted scenario into the live recording.
// The demo module (and with it @openai/agents) is loaded on first use only, so a plain
// `loupe serve` does not pay for it.
import { ApiError } from '../../../../shared/api/errors.js';
import type { Core } from '../../core.js';

export function demoStarter(core: Core, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)) {
  // Labels name runs: two demos played within one second would share one and merge.
  const used = new Set<string>();
  return async (scenario: string, speed: number): Promise<{ scenario: string; label: string }> => {
    const demo = await import('./index.js');
    if (!demo.isDemoScenario(scenario)) {
      throw new ApiError(
        'bad_request',
        `unknown demo scenario "${scenario}"; one of ${demo.DEMO_SCENARIOS.join(', ')}`,
      );
    }
    const base = `demo-${scenario}-${new Date().toISOString().slice(11, 19).replace(/:/g, '')}`;
    let label = base;
    for (let n = 2; used.has(label); n++) label = `${base}-${n}`;
    used.add(label);
    const running = await demo.startDemo(core, { scenario, speed, label });
    running.done
      .catch((err: Error) => log(`loupe: the ${scenario} demo stopped: ${err.message}`))
      .finally(() => void running.close());
    return { scenario, label };
  };
}
