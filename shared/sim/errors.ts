// OpenAI-shaped error bodies: `{"error":{"message","type","param","code"}}`, with the
// messages and type/code pairs the real API uses, so client error handling (and the
// SDK's APIError subclasses) behave as they would in production.
import type { WireError } from './wire.js';

function wireError(message: string, type: string, code: string | null = null, param: string | null = null): WireError {
  return { error: { message, type, param, code } };
}

/** The body for a simulated `status` reply. */
export function statusError(status: number, model: string): WireError {
  switch (status) {
    case 400:
      return wireError('Invalid request (simulated by the Loupe upstream sim).', 'invalid_request_error');
    case 401:
      return wireError(
        'Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys.',
        'invalid_request_error',
        'invalid_api_key',
      );
    case 403:
      return wireError(
        `You are not allowed to sample from this model: ${model}.`,
        'invalid_request_error',
        'model_not_found',
      );
    case 404:
      return wireError(
        `The model \`${model}\` does not exist or you do not have access to it.`,
        'invalid_request_error',
        'model_not_found',
      );
    case 429:
      return wireError(
        `Rate limit reached for ${model} on tokens per min (TPM): Limit 30000, Used 30000, Requested 512. ` +
          'Please try again in 1.024s.',
        'tokens',
        'rate_limit_exceeded',
      );
    case 500:
      return wireError('The server had an error while processing your request. Sorry about that!', 'server_error');
    case 503:
      return wireError('The engine is currently overloaded, please try again later.', 'server_error');
    default:
      return wireError(
        `Simulated HTTP ${status} from the Loupe upstream sim.`,
        status >= 500 ? 'server_error' : 'invalid_request_error',
      );
  }
}

export function invalidJsonError(): WireError {
  return wireError(
    "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP " +
      'library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you ' +
      'have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)',
    'invalid_request_error',
  );
}

export function invalidUrlError(method: string, path: string): WireError {
  return wireError(`Invalid URL (${method} ${path})`, 'invalid_request_error');
}

/** A bad `x-sim` header is the test author's mistake; say so plainly. */
export function simHeaderError(message: string, header = 'x-sim'): WireError {
  return wireError(message, 'invalid_request_error', 'invalid_sim_header', header);
}

/** The sim itself failed: a bug to fix, named so it is not mistaken for a simulated fault. */
export function simInternalError(err: unknown): WireError {
  const detail = err instanceof Error ? err.message : String(err);
  return wireError(`Loupe upstream sim failed: ${detail}`, 'server_error', 'sim_internal_error');
}

export function serverError(): WireError {
  const message = 'The server had an error while processing your request. Sorry about that!';
  return wireError(message, 'server_error', 'server_error');
}

/** A request the real API would refuse: thrown by the pure builders, sent as `status` + body. */
export class SimHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: WireError,
  ) {
    super(body.error.message);
  }
}

export function previousResponseNotFound(id: string): SimHttpError {
  return new SimHttpError(
    400,
    wireError(
      `Previous response with id '${id}' not found.`,
      'invalid_request_error',
      'previous_response_not_found',
      'previous_response_id',
    ),
  );
}

export function responseNotFound(id: string): SimHttpError {
  return new SimHttpError(404, wireError(`Response with id '${id}' not found.`, 'invalid_request_error'));
}

export function invalidRequest(message: string, param: string | null = null, code: string | null = null): SimHttpError {
  return new SimHttpError(400, wireError(message, 'invalid_request_error', code, param));
}
