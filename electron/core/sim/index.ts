// The fake OpenAI upstream (Node side). The pure builders it uses are in shared/sim/.
export {
  startSimUpstream,
  type SimRequestRecord,
  type SimStats,
  type SimUpstream,
  type SimUpstreamOptions,
} from './upstream.js';
export { SIM_DEFAULTS, type SimEncoding, type SimOptions, type SimTerminal } from '../../../shared/sim/options.js';
