// Wire types: the SDK typings minus what the SDK adds on the client side.
// `Response.output_text` is computed by the SDK (ResponsesParser.addOutputText) and is
// never sent by the API, so the simulator omits it; everything else follows the typings.
import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';

export type WireResponse = Omit<Response, 'output_text'>;

type Rewire<E> = E extends { response: Response } ? Omit<E, 'response'> & { response: WireResponse } : E;

/** Every ResponseStreamEvent member, with lifecycle events carrying a WireResponse. */
export type WireStreamEvent = Rewire<ResponseStreamEvent>;

/** OpenAI's error envelope for non-2xx replies and in-stream chat errors. */
export interface WireError {
  error: { message: string; type: string; param: string | null; code: string | null };
}
