import { describe, expect, it } from 'vitest';
import { ApiError, HTTP_STATUS, toErrorBody } from './errors.js';

describe('toErrorBody', () => {
  it('keeps an API error code and message', () => {
    expect(toErrorBody(new ApiError('not_found', 'no run r1'))).toEqual({ code: 'not_found', message: 'no run r1' });
    expect(toErrorBody({ code: 'bad_request', message: 'bad' })).toEqual({ code: 'bad_request', message: 'bad' });
  });

  it('makes a Node or SQLite error, whose code is no API code, internal, so it always has a status', () => {
    const sqlite = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
    const body = toErrorBody(sqlite);
    expect(body).toEqual({ code: 'internal', message: 'database disk image is malformed' });
    expect(HTTP_STATUS[body.code]).toBe(500);
    expect(toErrorBody({ code: 'toString', message: 'x' }).code).toBe('internal');
    expect(toErrorBody('plain').code).toBe('internal');
  });
});
