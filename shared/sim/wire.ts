// Wire types: the SDK typings minus what the SDK adds on the client side.
// `Response.output_text` is computed by the SDK (ResponsesParser.addOutputText) and is
// never sent by the API, so the simulator omits it; everything else follows the typings.
// Output items and stream events are the union of the GA typings and the multi-agent
// beta's (`agent_message`, `multi_agent_call(_output)`, `agent: {agent_name}` on events).
import type { BetaResponseOutputItem, BetaResponseStreamEvent } from 'openai/resources/beta/responses/responses';
import type { Response, ResponseOutputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';

export type WireOutputItem = ResponseOutputItem | BetaResponseOutputItem;

export type WireResponse = Omit<Response, 'output_text' | 'output'> & { output: WireOutputItem[] };

type Rewire<E> = E extends { response: unknown } ? Omit<E, 'response'> & { response: WireResponse } : E;

/** Every stream event of both typings, with lifecycle events carrying a WireResponse. */
export type WireStreamEvent = Rewire<ResponseStreamEvent> | Rewire<BetaResponseStreamEvent>;

/** OpenAI's error envelope for non-2xx replies and in-stream chat errors. */
export interface WireError {
  error: { message: string; type: string; param: string | null; code: string | null };
}
