// A client program for replay tests, run as `loupe record|replay FILE -- node replay-client.mjs NAME`:
// plays demo scenario NAME (or `background`, a background-mode client, or `sse FIRST SECOND`,
// a two-turn streamed chat whose prompts are given; REPLAY_SIM is sent as x-sim) against
// OPENAI_BASE_URL and prints what the client got back as one JSON line, so a recorded run and
// its replay can be compared output for output. Uses the built dist/.
import OpenAI from 'openai';
import { runDemo } from '../../dist/electron/core/sim/demo/index.js';

const name = process.argv[2] ?? 'coding';
const baseURL = process.env.OPENAI_BASE_URL;

async function background() {
  const client = new OpenAI({ apiKey: 'sk-test-replay-0000', baseURL, maxRetries: 0 });
  const sim = { headers: { 'x-sim': JSON.stringify({ gapMs: 5, events: 8, queueMs: 30 }) } };
  const started = await client.responses.create({ model: 'gpt-5', input: 'write a report', background: true }, sim);
  const reads = [started.status];
  let current = started;
  while (current.status === 'queued' || current.status === 'in_progress') {
    await new Promise((resolve) => setTimeout(resolve, 20));
    current = await client.responses.retrieve(started.id);
    reads.push(current.status);
  }
  const next = await client.responses.create({
    model: 'gpt-5',
    previous_response_id: current.id,
    input: 'shorter, please',
  });
  return { id: started.id, reads, text: current.output_text, next: next.output_text, nextId: next.id };
}

async function sse(first, second) {
  const client = new OpenAI({ apiKey: 'sk-test-replay-0000', baseURL, maxRetries: 0 });
  const options = { headers: { 'x-sim': process.env.REPLAY_SIM ?? '{}' } };
  const one = await client.responses.stream({ model: 'gpt-5', input: first }, options).finalResponse();
  const two = await client.responses
    .stream({ model: 'gpt-5', previous_response_id: one.id, input: second }, options)
    .finalResponse();
  return { ids: [one.id, two.id], texts: [one.output_text, two.output_text] };
}

const modes = { background, sse: () => sse(process.argv[3] ?? 'hello', process.argv[4] ?? 'and then?') };
const result =
  name in modes ? await modes[name]() : await runDemo({ baseURL, scenario: name, speed: 1000, label: 'replay' });
process.stdout.write(`${JSON.stringify(result)}\n`);
