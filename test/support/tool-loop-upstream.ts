// A scripted upstream for real client libraries' tool loops, over both the Responses API and
// Chat Completions: a user message that mentions the weather gets a `get_weather` call
// until the input carries that call's output, then a message; anything else gets a message.
// Every request body is kept as the bytes that arrived, so a test can compare what reached
// the upstream through Loupe with what the client sent. A request whose text says `hold`
// streams its first events and then waits for release(): an exchange in flight on demand.
// Agents SDK trace exports (`/v1/traces/ingest`) are taken with a 204, as the API does.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;

export interface ReceivedRequest {
  method: string;
  path: string;
  body: Buffer;
}

export interface ToolLoopUpstream {
  url: string;
  /** Every request as it arrived, in order. */
  received: ReceivedRequest[];
  /** Ends every held stream. */
  release(): void;
  close(): Promise<void>;
}

const USAGE = {
  input_tokens: 10,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 5,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 15,
};

export async function startToolLoopUpstream(): Promise<ToolLoopUpstream> {
  let next = 0;
  const id = (prefix: string) => `${prefix}_${(++next).toString().padStart(4, '0')}`;
  const received: ReceivedRequest[] = [];
  let releaseHeld: () => void = () => {};
  let held = new Promise<void>((resolve) => (releaseHeld = resolve));

  const responsesOutput = (body: Json): Json[] => {
    const input =
      typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : ((body.input as Json[]) ?? []);
    const asked = input.some((i) => i.role === 'user' && JSON.stringify(i.content).includes('weather'));
    const answered = input.some((i) => i.type === 'function_call_output');
    if (asked && !answered) {
      return [
        {
          id: id('fc'),
          type: 'function_call',
          status: 'completed',
          call_id: id('call'),
          name: 'get_weather',
          arguments: '{"city":"Paris"}',
        },
      ];
    }
    return [
      {
        id: id('msg'),
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', annotations: [], text: 'It is sunny.' }],
      },
    ];
  };
  const response = (body: Json, status: string, output: Json[]) => ({
    id: id('resp'),
    object: 'response',
    created_at: 1_760_000_000,
    status,
    model: 'gpt-5-2025-08-07',
    output,
    parallel_tool_calls: true,
    previous_response_id: body.previous_response_id ?? null,
    usage: status === 'completed' ? USAGE : null,
  });

  const chatMessage = (body: Json): Json => {
    const messages = (body.messages as Json[]) ?? [];
    const asked = messages.some((m) => m.role === 'user' && JSON.stringify(m.content).includes('weather'));
    const answered = messages.some((m) => m.role === 'tool');
    if (asked && !answered) {
      return {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: id('call'), type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      };
    }
    return { role: 'assistant', content: 'It is sunny.' };
  };

  const sse = (res: ServerResponse, events: Json[]) => {
    for (const e of events) res.write(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
  };

  async function answer(req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> {
    const body = raw.length ? (JSON.parse(raw.toString('utf8')) as Json) : {};
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'POST' && path === '/v1/responses') {
      const output = responsesOutput(body);
      if (body.stream !== true) return json(res, response(body, 'completed', output));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const started = response(body, 'in_progress', []);
      sse(res, [
        { type: 'response.created', sequence_number: 0, response: started },
        { type: 'response.in_progress', sequence_number: 1, response: started },
      ]);
      if (raw.includes('hold')) await held;
      const done = { ...started, status: 'completed', output, usage: USAGE };
      sse(res, [
        ...output.flatMap((item, i) => [
          { type: 'response.output_item.added', sequence_number: 2 + 2 * i, output_index: i, item },
          { type: 'response.output_item.done', sequence_number: 3 + 2 * i, output_index: i, item },
        ]),
        { type: 'response.completed', sequence_number: 2 + 2 * output.length, response: done },
      ]);
      res.end();
      return;
    }
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      const message = chatMessage(body);
      return json(res, {
        id: id('chatcmpl'),
        object: 'chat.completion',
        created: 1_760_000_000,
        model: 'gpt-4o-2024-08-06',
        choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop', logprobs: null }],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      });
    }
    if (req.method === 'POST' && path === '/v1/traces/ingest') {
      res.writeHead(204);
      res.end();
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ error: { message: `no route for ${req.method} ${path}`, type: 'invalid_request_error' } }),
    );
  }

  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      const body = Buffer.concat(parts);
      received.push({ method: req.method ?? '', path: req.url ?? '', body });
      answer(req, res, body).catch((err: Error) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: err.message, type: 'server_error' } }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    release() {
      releaseHeld();
      held = new Promise<void>((resolve) => (releaseHeld = resolve));
    },
    close: () =>
      new Promise<void>((resolve) => {
        releaseHeld();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function json(res: ServerResponse, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
