// A scripted upstream for the calls that read or store what a model said: background
// responses that finish on their second poll, the input-items listing, and a
// Conversations store that gives items ids of its own and lists them newest first, as the
// API does (oldest first with `order=asc`); a model call with `conversation` sees its items
// and adds its turn to it. Model calls answer with a function_call until the input carries its output,
// then with a message; every model call bills 15 tokens once.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const USAGE = {
  input_tokens: 10,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 5,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 15,
};

type Item = Record<string, unknown>;

export interface ReadsUpstream {
  url: string;
  close(): Promise<void>;
}

export async function startReadsUpstream(): Promise<ReadsUpstream> {
  let next = 0;
  const id = (prefix: string) => `${prefix}_${++next}`;
  const background = new Map<string, { polls: number; input: Item[] }>();
  const conversations = new Map<string, Item[]>();

  const response = (respId: string, status: string, output: Item[], extra: Item = {}) => ({
    id: respId,
    object: 'response',
    created_at: 1_760_000_000,
    status,
    model: 'gpt-5-2025-08-07',
    output,
    usage: status === 'completed' ? USAGE : null,
    parallel_tool_calls: true,
    ...extra,
  });
  const answer = (input: Item[]): Item[] => {
    const answered = input.some((i) => i.type === 'function_call_output');
    const asksTool = input.some((i) => i.role === 'user' && JSON.stringify(i.content).includes('order'));
    if (asksTool && !answered)
      return [
        {
          id: id('fc'),
          type: 'function_call',
          status: 'completed',
          call_id: id('call'),
          name: 'lookup',
          arguments: '{"order":42}',
        },
      ];
    return [
      {
        id: id('msg'),
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', annotations: [], text: 'done' }],
      },
    ];
  };
  const asInput = (input: unknown): Item[] =>
    typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : (input as Item[]);
  // A message is stored with content parts, whatever shape it was written in.
  const parts = (item: Item): Item =>
    typeof item.content === 'string'
      ? { content: [{ type: item.role === 'assistant' ? 'output_text' : 'input_text', text: item.content }] }
      : {};
  const list = (data: Item[]) => ({
    object: 'list',
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: false,
  });

  function route(method: string, path: string, query: string, body: Item): unknown {
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/responses') {
      const input = asInput(body.input);
      const respId = id('resp');
      if (body.background === true) {
        background.set(respId, { polls: 0, input });
        return response(respId, 'queued', [], { background: true });
      }
      // With `conversation`, the model sees what the conversation holds, and the turn is added to it.
      const convId = typeof body.conversation === 'string' ? body.conversation : null;
      const held = convId === null ? [] : (conversations.get(convId) ?? []);
      const output = answer([...held, ...input]);
      held.push(
        ...input.map((item) => ({
          ...item,
          ...parts(item),
          id: id('citem'),
          type: item.type ?? 'message',
          status: 'completed',
        })),
        ...output,
      );
      return response(respId, 'completed', output, convId === null ? {} : { conversation: { id: convId } });
    }
    if (method === 'GET' && (m = /^\/v1\/responses\/([^/]+)\/input_items$/.exec(path))) {
      const job = background.get(m[1]!);
      return list([...(job?.input ?? [])].reverse().map((item, k) => ({ id: `in_${m![1]}_${k}`, ...item })));
    }
    if (method === 'GET' && (m = /^\/v1\/responses\/([^/]+)$/.exec(path))) {
      const job = background.get(m[1]!)!;
      job.polls++;
      // Finished on the second poll: a poll in between sees it running.
      return job.polls < 2
        ? response(m[1]!, 'in_progress', [], { background: true })
        : response(
            m[1]!,
            'completed',
            [
              {
                id: `msg_${m[1]}`,
                type: 'message',
                status: 'completed',
                role: 'assistant',
                content: [{ type: 'output_text', annotations: [], text: 'the report' }],
              },
            ],
            { background: true },
          );
    }
    if (method === 'POST' && path === '/v1/conversations') {
      const convId = id('conv');
      conversations.set(convId, []);
      return { id: convId, object: 'conversation', created_at: 1_760_000_000, metadata: {} };
    }
    if ((m = /^\/v1\/conversations\/([^/]+)\/items$/.exec(path))) {
      const stored = conversations.get(m[1]!)!;
      if (method === 'POST') {
        // The conversation's own copies, under ids of its own.
        const added = (body.items as Item[]).map((item) => ({
          ...item,
          ...parts(item),
          id: id('citem'),
          type: item.type ?? 'message',
          status: 'completed',
        }));
        stored.push(...added);
        return list(added);
      }
      return list(new URLSearchParams(query).get('order') === 'asc' ? [...stored] : [...stored].reverse());
    }
    return {
      error: { message: `no script for ${method} ${path}`, type: 'invalid_request_error', param: null, code: null },
    };
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [path = '/', query = ''] = (req.url ?? '/').split('?');
      const reply = route(req.method ?? 'GET', path, query, text === '' ? {} : (JSON.parse(text) as Item));
      const status = typeof reply === 'object' && reply !== null && 'error' in reply ? 404 : 200;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
