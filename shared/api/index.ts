// The API contract: channels, events, payloads and errors. See contract.ts.
export * from './contract.js';
export * from './errors.js';
export * from './types.js';
export * from './run-filter.js';
