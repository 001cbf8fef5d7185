// vercel/ai `*.chunks.txt`: one line per SSE event holding only the `data:` payload; the
// recorder stripped `event:` lines, blank-line framing, and for Chat Completions the final
// `data: [DONE]`. The wire form is rebuilt here. Some files hold several consecutive
// responses of one agent loop; each is a separate HTTP response, so each becomes an exchange.
import { buildExchange } from './build-exchange.js';
import type { RecordedExchange, Recording, Synthesized } from './recording.js';

interface Line {
  raw: string;
  /** Event type of a Responses payload; read with a regex when the JSON is malformed. */
  type: string | null;
  chat: boolean;
}

const TYPE_FIELD = /^\s*\{\s*"type"\s*:\s*"([^"]+)"/;

function readLine(raw: string): Line {
  try {
    const value = JSON.parse(raw) as unknown;
    if (typeof value === 'object' && value !== null) {
      const o = value as Record<string, unknown>;
      if (typeof o.type === 'string') return { raw, type: o.type, chat: false };
      // Azure's first chat chunk carries only prompt_filter_results and an empty `object`.
      const chat = (typeof o.object === 'string' && o.object.startsWith('chat.completion')) || 'choices' in o;
      return { raw, type: null, chat };
    }
  } catch {
    // Hand-written fixtures contain truncated JSON; the line is still sent, verbatim.
  }
  return { raw, type: TYPE_FIELD.exec(raw)?.[1] ?? null, chat: false };
}

const TERMINAL = new Set(['response.completed', 'response.failed', 'response.incomplete']);
const OPENING = new Set(['response.created', 'response.queued']);

/** Consecutive responses: a new one opens when a created/queued event follows a terminal event. */
function splitResponses(lines: Line[]): Line[][] {
  const groups: Line[][] = [];
  let current: Line[] = [];
  let ended = false;
  for (const line of lines) {
    if (ended && line.type !== null && OPENING.has(line.type)) {
      groups.push(current);
      current = [];
      ended = false;
    }
    current.push(line);
    if (line.type !== null && TERMINAL.has(line.type)) ended = true;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

function responsesExchange(lines: Line[]): RecordedExchange {
  const body = lines
    .map((l) => (l.type === null ? `data: ${l.raw}\n\n` : `event: ${l.type}\ndata: ${l.raw}\n\n`))
    .join('');
  return streamExchange('/v1/responses', body, ['sse-framing']);
}

function chatExchange(lines: Line[]): RecordedExchange {
  const body = lines.map((l) => `data: ${l.raw}\n\n`).join('') + 'data: [DONE]\n\n';
  return streamExchange('/v1/chat/completions', body, ['sse-framing', 'done-sentinel']);
}

function streamExchange(path: string, body: string, framing: Synthesized[]): RecordedExchange {
  return buildExchange({
    method: 'POST',
    path,
    requestHeaders: [],
    requestBody: null,
    status: 200,
    responseHeaders: [['content-type', 'text/event-stream; charset=utf-8']],
    responseBody: Buffer.from(body, 'utf8'),
    synthesized: ['method', 'path', 'status', 'response-headers', ...framing],
  });
}

export function loadVercelChunks(file: string, source: string, text: string): Recording {
  const lines = text
    .split(/\r?\n/)
    .filter((l) => l.trim().length > 0)
    .map(readLine);
  if (lines.length === 0) return { file, source, format: 'vercel-chunks', exchanges: [], skipped: 'empty file' };
  const exchanges = lines.some((l) => l.chat) ? [chatExchange(lines)] : splitResponses(lines).map(responsesExchange);
  return { file, source, format: 'vercel-chunks', exchanges };
}
