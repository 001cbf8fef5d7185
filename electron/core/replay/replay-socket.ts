// One replayed WebSocket connection (the Responses API's WebSocket mode). Its first message
// binds it to a recorded connection; each client message then gets the server messages that
// followed it in the recording, with their recorded gaps under recorded timing. Messages are
// answered one at a time, in order, as the API does on one connection. A miss is answered
// with an API `error` event, the connection kept open; under `--on-miss forward` the
// connection continues on a live upstream socket from the missed message on.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import WebSocket, { WebSocketServer, type RawData } from 'ws';
import { parseRoute } from '../../../shared/capture/route.js';
import { firstHeaderValue } from '../../../shared/capture/hop-headers.js';
import type { UpstreamTarget } from '../../../shared/capture/upstream-url.js';
import type { SocketCursor } from '../../../shared/replay/matcher.js';
import { missError, MISS_STATUS } from '../../../shared/replay/miss.js';
import { requestKey } from '../../../shared/replay/normalize.js';
import { liveSocket } from './live-relay.js';
import { recordedSocketReply } from './recorded-answer.js';
import type { ReplayContext } from './replay-server.js';
import { pacer } from './send-answer.js';

const OPCODE_CLOSE = 8;
const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 0 });

export function replaySocket(
  ctx: ReplayContext,
  target: UpstreamTarget,
  req: IncomingMessage,
  socket: Socket,
  head: Buffer,
): void {
  const { path } = parseRoute(req.url ?? '/', (name) => firstHeaderValue(req.headers, name));
  wss.handleUpgrade(req, socket, head, (client) => {
    ctx.sockets.add(client);
    client.on('close', () => ctx.sockets.delete(client));
    let cursor: SocketCursor | null = null;
    // Messages are answered in arrival order: the next waits for the previous reply to be sent.
    let queue = Promise.resolve();

    const goLive = (first: RawData, binary: boolean) => {
      const upstream = liveSocket(target, req, path);
      const pending: Array<[RawData, boolean]> = [[first, binary]];
      upstream.on('open', () => {
        for (const [data, isBinary] of pending.splice(0)) upstream.send(data, { binary: isBinary });
      });
      upstream.on('message', (data, isBinary) => client.send(data, { binary: isBinary }));
      upstream.on('close', (code) => client.close(code === 1005 || code === 1006 ? 1000 : code));
      upstream.on('error', (err) => {
        ctx.options.log(`loupe replay: the live upstream socket failed: ${err.message}`);
        client.terminate();
      });
      client.on('close', () => upstream.close());
      return (data: RawData, isBinary: boolean) => {
        if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary: isBinary });
        else pending.push([data, isBinary]);
      };
    };
    let sendLive: ((data: RawData, isBinary: boolean) => void) | null = null;

    const answer = async (data: RawData, isBinary: boolean) => {
      if (sendLive) return sendLive(data, isBinary);
      const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      const key = requestKey(
        'WS',
        path,
        isBinary ? `binary:${buf.toString('base64')}` : buf.toString('utf8'),
        ctx.options.ignore,
      );
      const startMs = performance.now();
      const step = cursor ? ctx.options.matcher.advance(cursor, key) : ctx.options.matcher.bindSocket(path, key);
      let index: number;
      if ('cursor' in step) {
        cursor = step.cursor;
        index = 0;
      } else if ('index' in step) {
        index = step.index;
      } else {
        if (ctx.missed('WS', path, step.miss)) {
          ctx.stats.forwarded++;
          sendLive = goLive(data, isBinary);
          return;
        }
        client.send(JSON.stringify({ type: 'error', status: MISS_STATUS, error: missError('WS', path, step.miss) }));
        return;
      }
      ctx.stats.served++;
      const at = pacer(ctx.options.timing, startMs);
      for (const piece of recordedSocketReply(ctx.options.db, cursor!.entry.id, index)) {
        await at(piece.atUs);
        if (client.readyState !== WebSocket.OPEN) return;
        if (piece.opcode === OPCODE_CLOSE) {
          const code = piece.data.length >= 2 ? piece.data.readUInt16BE(0) : 1000;
          client.close(code === 1005 || code === 1006 ? 1000 : code, piece.data.subarray(2));
          return;
        }
        await new Promise<void>((resolve) => client.send(piece.data, { binary: piece.opcode === 2 }, () => resolve()));
      }
    };

    client.on('message', (data, isBinary) => {
      queue = queue
        .then(() => answer(data, isBinary))
        .catch((err: Error) => {
          ctx.options.log(`loupe replay: could not answer a WebSocket message on ${path}: ${err.message}`);
          client.terminate();
        });
    });
  });
}
