// The views read a failure's reason from the trace model, where the graph's frames get it too.
export { failureReason } from '../../shared/trace/normalize/failure-reason.js';
