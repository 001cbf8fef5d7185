// A fork's edits, as `--set POINTER=VALUE` gives them: a JSON pointer (RFC 6901) rooted at
// `/response/…` (the response served at the fork's step) or `/request/…` (the request sent
// at that step), and a value that is JSON where it parses and a string otherwise, so
// `--set /response/output/0/arguments='{"city":"Oslo"}'` sets a string holding JSON only
// when quoted as one, and `--set /request/instructions=Be brief` needs no quoting at all.
import { parsePointer } from '../replay/normalize.js';
import type { Json } from '../trace/types.js';

export type EditSide = 'response' | 'request';

export interface ForkEdit {
  side: EditSide;
  /** The pointer as given, for messages. */
  pointer: string;
  /** Its segments below the side: `/request/input/3/output` is ['input', '3', 'output']. */
  path: string[];
  value: Json;
}

export class ForkEditError extends Error {}

/** A value as typed: JSON where it parses, else the text itself. */
export function editValue(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return text;
  }
}

export function parseEdit(pointer: string, value: Json): ForkEdit {
  if (!pointer.startsWith('/'))
    throw new ForkEditError(
      `--set needs a JSON pointer such as /response/output/0/arguments or /request/instructions, got "${pointer}"`,
    );
  const [side, ...path] = parsePointer(pointer);
  if (side !== 'response' && side !== 'request')
    throw new ForkEditError(
      `--set ${pointer}: a pointer starts at /response (what the step answered) or /request (what the step sent)`,
    );
  if (path.length === 0)
    throw new ForkEditError(
      `--set ${pointer}: point into the ${side} (such as /${side}/${side === 'response' ? 'output/0/text' : 'input/0/content'}), not at the whole of it`,
    );
  return { side, pointer, path, value };
}

/** `POINTER=VALUE`, split at the first `=`. */
export function parseSetArg(arg: string): ForkEdit {
  const eq = arg.indexOf('=');
  if (eq < 0) throw new ForkEditError(`--set needs POINTER=VALUE, got "${arg}"`);
  return parseEdit(arg.slice(0, eq), editValue(arg.slice(eq + 1)));
}

/**
 * Checks a plan's edits belong together: a request edit sends its step live, so no
 * recorded response is left at that step for a response edit to change.
 */
export function checkEdits(edits: readonly ForkEdit[]): void {
  if (edits.length === 0) throw new ForkEditError('a fork needs at least one --set POINTER=VALUE');
  const sides = new Set(edits.map((e) => e.side));
  if (sides.size > 1)
    throw new ForkEditError(
      'edits of one step change either its /request (which then goes live) or its /response (served edited), not both',
    );
}

/**
 * The request as edits under `/request/input/N/…` see it: a bare string input is the one
 * user message it stands for (as the API reads it, and as Loupe shows it), so an edit can
 * point into that message.
 */
export function requestForEdits<T extends { [key: string]: Json }>(body: T, edits: readonly ForkEdit[]): T {
  if (
    typeof body.input !== 'string' ||
    !edits.some((e) => e.side === 'request' && e.path[0] === 'input' && e.path.length > 1)
  )
    return body;
  return { ...body, input: [{ type: 'message', role: 'user', content: body.input }] };
}
