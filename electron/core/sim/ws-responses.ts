// WebSocket mode of /v1/responses in the simulator. The upgrade request's headers choose
// the behaviour for the whole connection (`x-sim` options, `x-sim-scenario`, OpenAI-Beta:
// the SDK sends its default headers there); each message is then handled by a
// WsConnection (ws-connection.ts). A bad x-sim header refuses the upgrade with the same
// 400 JSON an HTTP request would get, so the mistake is not silent.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { simHeaderError } from '../../../shared/sim/errors.js';
import type { SimIds } from '../../../shared/sim/ids.js';
import { parseSimHeader, resolveSimOptions, SimOptionsError, type SimOptions } from '../../../shared/sim/options.js';
import { parseScenarioHeader } from '../../../shared/sim/scenario.js';
import type { SimResponseStore } from '../../../shared/sim/store.js';
import { WsConnection } from './ws-connection.js';

export { WS_RESET_CODE } from './ws-connection.js';

export interface WsSimContext {
  ids: SimIds;
  store: SimResponseStore;
  defaults: Partial<SimOptions>;
  onEvent(): void;
}

function refuse(socket: Duplex, status: string, body = ''): void {
  socket.end(
    `HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

export function createWsResponses(ctx: WsSimContext) {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  return (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/v1/responses') {
      refuse(socket, '404 Not Found');
      return;
    }
    const one = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v.join(',') : v;
    };
    let setup;
    try {
      setup = {
        opts: resolveSimOptions(ctx.defaults, parseSimHeader(one('x-sim'))),
        scenario: parseScenarioHeader(one('x-sim-scenario')),
        betas: one('openai-beta') === undefined ? [] : [one('openai-beta')!],
      };
    } catch (err) {
      if (!(err instanceof SimOptionsError)) throw err;
      refuse(socket, '400 Bad Request', JSON.stringify(simHeaderError(err.message, err.header)));
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => new WsConnection(ws, setup, ctx));
  };
}
