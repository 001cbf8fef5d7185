// Recorded-exchange scenarios for the shapes the graph layout must keep readable: a wide
// parallel fan-out, a program making many calls, a team of subagents in one streamed
// response, a long stateless loop resending its history, a turn the upstream never answered (also one later
// compacted away). Pure builders, shared
// by the
// layout's property tests and the e2e suite.
import { rawExchange } from './raw-exchange-builder.js';
import { agent, call, compactExchange, out, say, streamed, T0, user } from './scenarios.js';
import type { JsonObject, RawExchange } from '../types.js';

/** One response fans out `n` parallel calls of one tool; the next request returns every output. */
export function fanOut(n: number, tool = 'lookup_row'): RawExchange[] {
  const calls = Array.from({ length: n }, (_, i) => call(`fc_f${i}`, `call_f${i}`, tool, { row: i }));
  return [
    streamed(1, 0, { model: 'gpt-5', input: `Look up ${n} rows`, stream: true }, 'resp_fan1', [
      { id: 'rs_fan', type: 'reasoning', summary: [] },
      ...calls,
    ]),
    streamed(
      2,
      4,
      {
        model: 'gpt-5',
        previous_response_id: 'resp_fan1',
        stream: true,
        input: calls.map((_, i) => out(`call_f${i}`, `{"row":${i},"ok":true}`)),
      },
      'resp_fan2',
      [say('msg_fan', `All ${n} rows found.`)],
    ),
  ];
}

/** A program makes `n` tool calls (`caller: {type: 'program'}`); its output and the answer come next turn. */
export function programFan(n: number): RawExchange[] {
  const program = {
    id: 'prog_w',
    type: 'program',
    call_id: 'pc_w',
    code: 'const stats = await Promise.all(regions.map(get_latency_stats));',
    fingerprint: 'fp',
  };
  const viaProgram = { caller: { type: 'program', caller_id: 'pc_w' } };
  const calls = Array.from({ length: n }, (_, i) =>
    call(`fc_p${i}`, `call_p${i}`, 'get_latency_stats', { region: `region-${i}` }, viaProgram),
  );
  return [
    streamed(1, 0, { model: 'gpt-5', input: 'Which region is slowest?', stream: true }, 'resp_pw1', [
      program,
      ...calls,
    ]),
    streamed(
      2,
      3,
      {
        model: 'gpt-5',
        previous_response_id: 'resp_pw1',
        stream: true,
        input: calls.map((_, i) => out(`call_p${i}`, `{"p95":${100 + i}}`)),
      },
      'resp_pw2',
      [
        { id: 'po_w', type: 'program_output', call_id: 'pc_w', result: 'region-4', status: 'completed' },
        say('msg_pw', 'region-4 is slowest.'),
      ],
    ),
  ];
}

/** Multi-agent beta: the root spawns `k` subagents, each searches and reports back, the root synthesizes. */
export function researchTeam(k = 3): RawExchange[] {
  const names = Array.from({ length: k }, (_, i) => `researcher_${i + 1}`);
  const output: JsonObject[] = [
    {
      id: 'rs_team',
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'Split the question.' }],
      ...agent('root'),
    },
    ...names.map((name, i) => ({
      id: `mac_s${i}`,
      type: 'multi_agent_call',
      action: 'spawn_agent',
      call_id: `spawn_${i}`,
      arguments: JSON.stringify({ agent_name: name, task: `angle ${i + 1}` }),
      ...agent('root'),
    })),
    ...names.map((_, i) => ({
      id: `mco_s${i}`,
      type: 'multi_agent_call_output',
      action: 'spawn_agent',
      call_id: `spawn_${i}`,
      output: [{ type: 'output_text', text: 'spawned' }],
      ...agent('root'),
    })),
    {
      id: 'mac_wait',
      type: 'multi_agent_call',
      action: 'wait_agent',
      call_id: 'wait_1',
      arguments: JSON.stringify({ agent_names: names }),
      ...agent('root'),
    },
  ];
  for (let step = 0; step < 3; step++) {
    names.forEach((name, i) => {
      if (step === 0)
        output.push({
          id: `rs_${i}`,
          type: 'reasoning',
          summary: [{ type: 'summary_text', text: `Plan angle ${i + 1}.` }],
          ...agent(name),
        });
      if (step === 1)
        output.push({
          id: `ws_${i}`,
          type: 'web_search_call',
          status: 'completed',
          action: { type: 'search', query: `angle ${i + 1}` },
          ...agent(name),
        });
      if (step === 2)
        output.push({
          id: `am_${i}`,
          type: 'agent_message',
          author: name,
          recipient: 'root',
          content: [{ type: 'input_text', text: `Angle ${i + 1} done.` }],
          ...agent(name),
        });
    });
  }
  output.push(
    {
      id: 'mco_wait',
      type: 'multi_agent_call_output',
      action: 'wait_agent',
      call_id: 'wait_1',
      output: [{ type: 'output_text', text: `${k} agents finished.` }],
      ...agent('root'),
    },
    say('msg_team', 'Here is the synthesis.', agent('root')),
  );
  return [
    streamed(
      1,
      0,
      { model: 'gpt-5', input: 'Research the options', multi_agent: { enabled: true }, stream: true },
      'resp_team',
      output,
    ),
  ];
}

/** A stateless loop of `turns` responses: every request resends the whole history; odd turns call a tool. */
export function statelessTurns(turns = 40): RawExchange[] {
  const history: JsonObject[] = [user('Fix the failing tests.')];
  const exchanges: RawExchange[] = [];
  for (let t = 0; t < turns; t++) {
    const output =
      t % 2 === 0
        ? [call(`fc_t${t}`, `call_t${t}`, 'run_tests', { step: t })]
        : [say(`msg_t${t}`, `Step ${t}: one more test passes.`)];
    exchanges.push(streamed(t + 1, t * 2, { model: 'gpt-5', input: [...history], stream: true }, `resp_t${t}`, output));
    history.push(...output);
    history.push(t % 2 === 0 ? out(`call_t${t}`, `${t} passed`) : user(`Continue (${t}).`));
  }
  return exchanges;
}

/**
 * A tool call, then the request returning its output finds the upstream unreachable; the client retries and gets its
 * answer.
 */
export function unreachableTurn(): RawExchange[] {
  const lookup = call('fc_u1', 'call_u1', 'get_weather', { city: 'Paris' });
  const second = {
    model: 'gpt-5',
    previous_response_id: 'resp_u1',
    stream: true,
    input: [out('call_u1', '18 °C, clear')],
  };
  return [
    streamed(1, 0, { model: 'gpt-5', input: 'Weather in Paris?', stream: true }, 'resp_u1', [lookup]),
    rawExchange({
      id: 2,
      startedAt: T0 + 2_000,
      request: second,
      status: null,
      response: [],
      state: 'upstream_unreachable',
      error: 'connect ECONNREFUSED 127.0.0.1:9',
    }),
    streamed(3, 4, second, 'resp_u3', [say('msg_u3', 'It is 18 °C and clear in Paris.')]),
  ];
}

/**
 * A turn the upstream never answered, then compacted away with the turn before it (the client
 * compacts what it sent), then one more turn after the compaction.
 */
export function failureInCompaction(): RawExchange[] {
  const m1 = say('msg_k1', 'First answer.');
  const sent = [user('one'), m1, user('two')];
  const compacted = { id: 'cmp_k', type: 'compaction', encrypted_content: 'gAAAA-compacted' };
  return [
    streamed(1, 0, { model: 'gpt-5', input: [user('one')], stream: true }, 'resp_k1', [m1]),
    rawExchange({
      id: 2,
      startedAt: T0 + 2_000,
      request: { model: 'gpt-5', input: sent, stream: true },
      status: null,
      response: [],
      state: 'upstream_unreachable',
      error: 'connect ECONNREFUSED 127.0.0.1:9',
    }),
    compactExchange(3, 4, 'resp_kc', sent, compacted, [30_000, 2_000]),
    streamed(4, 6, { model: 'gpt-5', input: [compacted, user('three')], stream: true }, 'resp_k4', [
      say('msg_k4', 'Third answer.'),
    ]),
  ];
}
