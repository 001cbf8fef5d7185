import { describe, expect, it } from 'vitest';
import { ReplayMatcher, type ReplayEntry } from './matcher.js';
import { ignoreList, requestKey } from './normalize.js';
import { requestDiff } from './diff.js';

const ignore = ignoreList();
const post = (body: unknown, path = '/v1/responses') => requestKey('POST', path, JSON.stringify(body), ignore);
const get = (path: string) => requestKey('GET', path, '', ignore);
const entry = (id: number, request: ReturnType<typeof post>, runId: string | null = 'run:a'): ReplayEntry => ({
  id,
  transport: 'http',
  request,
  runId,
});
const served = (m: ReturnType<ReplayMatcher['matchHttp']>) => ('entry' in m ? m.entry.id : null);

describe('request keys', () => {
  it('compare JSON by value: key order and whitespace do not matter', () => {
    const a = requestKey('POST', '/v1/responses', '{"model":"gpt-5","input":"hi"}', ignore);
    const b = requestKey('POST', '/v1/responses', '{ "input": "hi",\n "model": "gpt-5" }', ignore);
    expect(a.key).toBe(b.key);
  });

  it('ignore the volatile fields and the --ignore pointers, wildcards included', () => {
    expect(post({ input: 'hi', prompt_cache_key: 'a1' }).key).toBe(post({ input: 'hi', prompt_cache_key: 'b2' }).key);
    const own = ignoreList(['/metadata/run', '/input/*/id']);
    const a = requestKey(
      'POST',
      '/v1/responses',
      JSON.stringify({ metadata: { run: 1, app: 'x' }, input: [{ id: 'm1', text: 't' }] }),
      own,
    );
    const b = requestKey(
      'POST',
      '/v1/responses',
      JSON.stringify({ metadata: { run: 2, app: 'x' }, input: [{ id: 'm2', text: 't' }] }),
      own,
    );
    expect(a.key).toBe(b.key);
    const c = requestKey(
      'POST',
      '/v1/responses',
      JSON.stringify({ metadata: { run: 2, app: 'y' }, input: [{ id: 'm2', text: 't' }] }),
      own,
    );
    expect(c.key).not.toBe(a.key);
  });

  it('do not compare trace ingest bodies, which carry fresh ids and times', () => {
    expect(post({ data: [{ id: 'trace_1' }] }, '/v1/traces/ingest').key).toBe(
      post({ data: [{ id: 'trace_2' }] }, '/v1/traces/ingest').key,
    );
  });

  it('refuse a pointer that is not one', () => {
    expect(() => ignoreList(['metadata'])).toThrow(/--ignore needs a JSON pointer/);
  });
});

describe('the structural diff', () => {
  it('names the paths that differ', () => {
    const recorded = post({
      tools: [{}, {}, { parameters: { required: ['a'] } }],
      input: [{ content: [{ text: 'x' }] }],
    });
    const got = post({
      tools: [{}, {}, { parameters: { required: ['b'] } }],
      input: [{ content: [{ text: 'y' }] }, { role: 'user' }],
      stream: true,
    });
    expect(requestDiff(got, recorded)).toEqual([
      'tools[2].parameters.required[0] changed',
      'input[0].content[0].text changed',
      'input[1] added',
      'stream added',
    ]);
  });
});

describe('ReplayMatcher', () => {
  it('answers identical requests with the recorded answers in recorded order, then the last read again for a GET', () => {
    const poll = get('/v1/responses/resp_1');
    const m = new ReplayMatcher([entry(1, poll), entry(2, poll), entry(3, poll)]);
    expect([1, 2, 3, 4].map(() => served(m.matchHttp(poll)))).toEqual([1, 2, 3, 3]);
  });

  it("answers trace ingest again once its recorded answers are used: its batching follows the client's timers", () => {
    const m = new ReplayMatcher([entry(1, post({ data: [1] }, '/v1/traces/ingest'), null)]);
    expect([1, 2].map(() => served(m.matchHttp(post({ data: [2] }, '/v1/traces/ingest'))))).toEqual([1, 1]);
  });

  it('answers a POST at most once: the second identical one is a miss naming the used one', () => {
    const m = new ReplayMatcher([entry(1, post({ input: 'hi' }))]);
    expect(served(m.matchHttp(post({ input: 'hi' })))).toBe(1);
    const again = m.matchHttp(post({ input: 'hi' }));
    expect('miss' in again && again.miss.closest?.exchange).toBe(1);
  });

  it('matches requests in flight at once in any order', () => {
    const m = new ReplayMatcher([entry(1, post({ input: 'a' })), entry(2, post({ input: 'b' }))]);
    expect(served(m.matchHttp(post({ input: 'b' })))).toBe(2);
    expect(served(m.matchHttp(post({ input: 'a' })))).toBe(1);
  });

  it('with a run given, answers from that run and from exchanges of no run only', () => {
    const m = new ReplayMatcher(
      [
        entry(1, post({ input: 'a' }), 'run:a'),
        entry(2, post({ input: 'a' }), 'run:b'),
        entry(3, post({}, '/v1/traces/ingest'), null),
      ],
      'run:b',
    );
    expect(served(m.matchHttp(post({ input: 'a' })))).toBe(2);
    expect(served(m.matchHttp(post({}, '/v1/traces/ingest')))).toBe(3);
  });

  it('gives the closest request on a miss, and answers nothing more from a run gone live', () => {
    const m = new ReplayMatcher([
      entry(1, post({ input: 'a', model: 'm' })),
      entry(2, post({ input: 'b', model: 'n', stream: true })),
      entry(3, post({ input: 'c' })),
    ]);
    const miss = m.matchHttp(post({ input: 'z', model: 'm' }));
    expect('miss' in miss && miss.miss).toEqual({
      closest: { exchange: 1, method: 'POST', path: '/v1/responses', run: 'run:a' },
      diff: ['input changed'],
    });
    m.goLive('run:a');
    expect('miss' in m.matchHttp(post({ input: 'c' }))).toBe(true);
  });

  it('binds a WebSocket by its first message and then follows that connection in order', () => {
    const msg = (n: number) =>
      requestKey('WS', '/v1/responses', JSON.stringify({ type: 'response.create', input: `turn ${n}` }), ignore);
    const ws = (id: number, turns: number[]): ReplayEntry => ({
      id,
      transport: 'websocket',
      request: get('/v1/responses'),
      runId: `run:${id}`,
      clientMessages: turns.map(msg),
    });
    const m = new ReplayMatcher([ws(1, [1, 2]), ws(2, [1, 3])]);
    const first = m.bindSocket('/v1/responses', msg(1));
    const second = m.bindSocket('/v1/responses', msg(1));
    if (!('cursor' in first) || !('cursor' in second)) throw new Error('both connections should bind');
    expect([first.cursor.entry.id, second.cursor.entry.id]).toEqual([1, 2]);
    expect(m.advance(second.cursor, msg(3))).toEqual({ index: 1 });
    const off = m.advance(first.cursor, msg(3));
    expect('miss' in off && off.miss.closest).toEqual({
      exchange: 1,
      method: 'GET',
      path: '/v1/responses',
      run: 'run:1',
      message: 1,
    });
  });
});
