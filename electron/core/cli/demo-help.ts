// The scenario lines of `loupe --help`, from the scenario catalogue. Kept apart from
// demo.ts so the help text does not load the demo's clients (@openai/agents among them).
import { SCENARIOS } from '../../../shared/sim/scenario.js';

export function demoHelp(): string {
  return SCENARIOS.map((s) => `                ${s.name.padEnd(9)} ${s.description}`).join('\n');
}
