// Deterministic content for simulated output: message text and function calls.
// Text is plain ASCII without characters JSON must escape, so a body's size grows
// exactly linearly with the text length (the bodyBytes fitting relies on that).

const CORPUS =
  'The agent read the task, listed the files it needed, and called its tools in parallel. ' +
  'Each result came back with a call id that tied it to the request that asked for it. ' +
  'When the last output arrived, the agent wrote a short summary and stopped. ';

/** `length` characters of the corpus starting at `start`, wrapping around as needed. */
export function simText(length: number, start = 0): string {
  if (length <= 0) return '';
  const from = start % CORPUS.length;
  const repeats = Math.ceil((from + length) / CORPUS.length);
  return CORPUS.repeat(repeats).slice(from, from + length);
}

/** `count` consecutive text deltas of `size` characters each. */
export function textChunks(count: number, size: number): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < count; i++) chunks.push(simText(size, i * size));
  return chunks;
}

/** Splits a string into pieces of at most `size` characters (at least one piece). */
export function splitChunks(text: string, size: number): string[] {
  if (text.length === 0) return [''];
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

/** A function tool the client declared, reduced to what argument synthesis needs. */
export interface SimToolDef {
  name: string;
  parameters?: unknown;
}

const CITIES = ['Paris, France', 'Tokyo, Japan', 'Lima, Peru', 'Oslo, Norway', 'Accra, Ghana'];

/** Used when the request declares no function tools: common agent tools. */
const FIXTURES: Array<(i: number) => { name: string; args: Record<string, unknown> }> = [
  (i) => ({ name: 'get_weather', args: { location: CITIES[i % CITIES.length], unit: 'celsius' } }),
  (i) => ({ name: 'search_docs', args: { query: `streaming backpressure part ${i + 1}`, top_k: 5 } }),
  (i) => ({ name: 'read_file', args: { path: `src/module-${i + 1}.ts` } }),
  (i) => ({ name: 'run_shell', args: { command: 'ls -la', timeout_ms: 10_000 + i } }),
];

/** Arguments for a declared tool: one plausible value per top-level schema property. */
function argsFromSchema(parameters: unknown, i: number): Record<string, unknown> {
  const props = (parameters as { properties?: Record<string, { type?: unknown; enum?: unknown[] }> } | null)
    ?.properties;
  const args: Record<string, unknown> = {};
  if (typeof props !== 'object' || props === null) return args;
  for (const [key, schema] of Object.entries(props)) {
    const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
    if (Array.isArray(schema?.enum) && schema.enum.length > 0) args[key] = schema.enum[0];
    else if (type === 'number' || type === 'integer') args[key] = i + 1;
    else if (type === 'boolean') args[key] = true;
    else if (type === 'array') args[key] = [];
    else if (type === 'object') args[key] = {};
    else if (/city|location|place/i.test(key)) args[key] = CITIES[i % CITIES.length];
    else args[key] = `${key} ${i + 1}`;
  }
  return args;
}

/** The i-th simulated call: cycles through the client's tools, or through the fixtures. */
export function simToolCall(i: number, tools: SimToolDef[]): { name: string; arguments: string } {
  const declared = tools[i % Math.max(tools.length, 1)];
  if (declared) {
    return { name: declared.name, arguments: JSON.stringify(argsFromSchema(declared.parameters, i)) };
  }
  const fixture = FIXTURES[i % FIXTURES.length]!(i);
  return { name: fixture.name, arguments: JSON.stringify(fixture.args) };
}
