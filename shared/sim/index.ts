// Pure wire-format builders of the upstream simulator (no node:* imports), shared by the
// server in electron/sim/ and by anything that must know what the server sends.
export * from './options.js';
export * from './ids.js';
export * from './content.js';
export * from './request.js';
export * from './plan.js';
export * from './wire.js';
export * from './items.js';
export * from './response-plan.js';
export * from './response.js';
export * from './stream.js';
export * from './chat.js';
export * from './errors.js';
export * from './sse.js';
export * from './models.js';
export * from './pace.js';
export * from './store.js';
export * from './background.js';
export * from './prepare.js';
export * from './scenario.js';
export * from './reply.js';
