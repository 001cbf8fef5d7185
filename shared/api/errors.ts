// Errors cross the API boundary as `{code, message}`. Whatever throws inside the service
// reaches the renderer as one of these codes, so the UI can say what went wrong and the
// transport can map it (HTTP status in the headless server) without knowing the channel.

export type ApiErrorCode =
  | 'bad_request'
  | 'unknown_channel'
  | 'not_found'
  | 'unauthorized'
  | 'forbidden'
  | 'too_large'
  | 'unavailable'
  | 'internal';

export interface ApiErrorBody {
  code: ApiErrorCode;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toJSON(): ApiErrorBody {
    return { code: this.code, message: this.message };
  }
}

/** Any thrown value as an error body; unknown throws become `internal` with their message. */
export function toErrorBody(err: unknown): ApiErrorBody {
  if (isErrorBody(err)) return { code: err.code, message: err.message };
  return { code: 'internal', message: err instanceof Error ? err.message : String(err) };
}

/**
 * Only the codes above: a Node or SQLite error also has a string `code` and `message`
 * (`ENOENT`, `SQLITE_CORRUPT`), and passed on as a body it would have no HTTP status.
 */
export function isErrorBody(value: unknown): value is ApiErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.hasOwn(HTTP_STATUS, (value as ApiErrorBody).code) &&
    typeof (value as ApiErrorBody).message === 'string'
  );
}

export const HTTP_STATUS: Record<ApiErrorCode, number> = {
  bad_request: 400,
  unknown_channel: 404,
  not_found: 404,
  unauthorized: 401,
  forbidden: 403,
  too_large: 413,
  unavailable: 503,
  internal: 500,
};
