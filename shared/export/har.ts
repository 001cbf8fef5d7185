// `loupe export --format har`: HAR 1.2, so a recording opens in browser devtools, Charles
// or any HAR viewer. Bodies are the recorder's decoded text (the client got the encoded
// bytes; `content.encoding` is not used). WebSocket messages ride in `_webSocketMessages`
// as Chrome's devtools write them; Loupe's own fields start with `_loupe`.
import type { HeaderList } from '../capture/exchange.js';
import { statusText } from '../capture/status-text.js';
import type { DecodedBody, RawExchange } from '../trace/types.js';

export interface HarInput {
  raw: RawExchange;
  /** The upstream the exchange went to, e.g. `https://api.openai.com`. */
  upstream: string;
}

interface HarHeader {
  name: string;
  value: string;
}

const toHar = (headers: HeaderList | null): HarHeader[] => (headers ?? []).map(([name, value]) => ({ name, value }));

function find(headers: HeaderList | null, name: string): string | undefined {
  return headers?.find(([n]) => n.toLowerCase() === name)?.[1];
}

const text = (body: DecodedBody) => body.chunks.map((c) => c.text).join('');
const ms = (us: number | null | undefined) => (us === null || us === undefined ? -1 : Math.round(us / 100) / 10);

/** One exchange's HAR entry. */
export function harEntry({ raw, upstream }: HarInput) {
  const url = new URL(upstream.replace(/\/$/, '') + (raw.path.startsWith('/') ? raw.path : `/${raw.path}`));
  // A WebSocket session is `ws(s)://` in HAR, as browsers' devtools write it.
  if (raw.transport === 'websocket') url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const requestText = text(raw.request);
  const responseText = text(raw.response);
  const firstChunkUs = raw.response.chunks[0]?.tUs ?? raw.responseHeadUs;
  const wait = ms(raw.responseHeadUs);
  const receive = raw.endUs !== null && firstChunkUs !== null ? ms(raw.endUs - (raw.responseHeadUs ?? 0)) : 0;
  return {
    startedDateTime: new Date(raw.startedAt).toISOString(),
    time: ms(raw.endUs ?? raw.responseHeadUs ?? 0),
    request: {
      method: raw.method,
      url: url.toString(),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: toHar(raw.requestHeaders),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(requestText
        ? {
            postData: {
              mimeType: find(raw.requestHeaders, 'content-type') ?? 'application/octet-stream',
              text: requestText,
            },
          }
        : {}),
      headersSize: -1,
      bodySize: requestText.length,
    },
    response: {
      status: raw.status ?? 0,
      statusText: statusText(raw.status),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: toHar(raw.responseHeaders),
      content: {
        size: responseText.length,
        mimeType: find(raw.responseHeaders, 'content-type') ?? 'application/octet-stream',
        text: responseText,
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: Math.max(wait, 0), receive: Math.max(receive, 0) },
    ...(raw.transport === 'websocket'
      ? {
          _webSocketMessages: raw.frames.map((f) => ({
            type: f.from === 'client' ? 'send' : 'receive',
            time: (raw.startedAt + f.tUs / 1000) / 1000,
            opcode: f.opcode,
            data: f.text,
          })),
        }
      : {}),
    _loupeExchangeId: raw.id,
    _loupeState: raw.state,
    _loupeLabel: raw.label,
    _loupeAgent: raw.agent,
    ...(raw.error ? { _loupeError: raw.error } : {}),
  };
}

/** An exchange whose stored rows could not be read back (a damaged recording). */
export interface HarUnreadable {
  id: number;
  error: string;
}

/**
 * The HAR document around its entries. Unreadable exchanges are listed in
 * `log._loupeUnreadable`, present only when there are some.
 */
export function harLog<E>(entries: E[], version: string, unreadable: HarUnreadable[] = []) {
  return {
    log: {
      version: '1.2',
      creator: { name: 'Loupe', version },
      pages: [],
      entries,
      ...(unreadable.length
        ? { _loupeUnreadable: unreadable.map((u) => ({ _loupeExchangeId: u.id, _loupeError: u.error })) }
        : {}),
    },
  };
}
