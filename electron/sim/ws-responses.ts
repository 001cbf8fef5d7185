// WebSocket mode of /v1/responses in the simulator: each `response.create` message on the
// connection streams the same events an SSE reply would, as one JSON text message each.
// Options come from the upgrade request's `x-sim` header (the SDK sends its default
// headers there). `resetAfterEvents` closes the socket with code 1011 after N events of a
// turn, to test a mid-turn close; `response.steer` is acknowledged with
// `response.steer.accepted` while a turn streams.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { SimIds } from '../../shared/sim/ids.js';
import type { SimOptions } from '../../shared/sim/options.js';
import { planResponse } from '../../shared/sim/plan.js';
import { parseResponsesRequest } from '../../shared/sim/request.js';
import { responseEvents } from '../../shared/sim/stream.js';

export const WS_RESET_CODE = 1011;

export interface WsSimContext {
  ids: SimIds;
  optionsFor(req: IncomingMessage): SimOptions;
  onEvent(): void;
}

export function createWsResponses(ctx: WsSimContext) {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  return (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/v1/responses') {
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    const opts = ctx.optionsFor(req);
    wss.handleUpgrade(req, socket, head, (ws) => serveConnection(ws, opts, ctx));
  };
}

function serveConnection(ws: WebSocket, opts: SimOptions, ctx: WsSimContext): void {
  let turn = Promise.resolve();
  let steering: string | null = null;
  ws.on('message', (data) => {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(data.toString()) as Record<string, unknown>;
    } catch {
      ws.send(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', code: 'invalid_json', message: 'message is not valid JSON', param: null } }));
      return;
    }
    if (msg.type === 'response.create') {
      const { type: _type, ...params } = msg;
      turn = turn.then(() => streamTurn(ws, params, opts, ctx, (id) => (steering = id)));
    } else if (msg.type === 'response.steer') {
      ws.send(JSON.stringify({ type: 'response.steer.accepted', steer: { id: `steer_${Date.now().toString(36)}`, response_id: steering } }));
    }
  });
}

async function streamTurn(ws: WebSocket, params: Record<string, unknown>, opts: SimOptions, ctx: WsSimContext, active: (id: string | null) => void): Promise<void> {
  const req = parseResponsesRequest(JSON.stringify({ ...params, stream: true }));
  if (!req) return;
  const now = Math.floor(Date.now() / 1000);
  const plan = planResponse(req, opts, ctx.ids, now);
  await sleep(opts.ttftMs);
  let sent = 0;
  for (const event of responseEvents(plan, req.params, now)) {
    if (ws.readyState !== ws.OPEN) return;
    if (event.type === 'response.created') active(event.response.id);
    ws.send(JSON.stringify(event));
    ctx.onEvent();
    if (opts.resetAfterEvents !== null && ++sent >= opts.resetAfterEvents) {
      ws.close(WS_RESET_CODE, 'sim: closing mid-turn');
      return;
    }
    if (opts.gapMs) await sleep(opts.gapMs);
  }
  active(null);
}

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve());
