import { describe, expect, it } from 'vitest';
import { requestTargetProblem } from './request-target.js';

describe('requestTargetProblem', () => {
  it('accepts a path, with or without a query, and a path that starts with two slashes', () => {
    for (const target of ['/', '/v1/responses', '/s/run-1/v1/responses?stream=true', '//169.254.169.254/latest'])
      expect(requestTargetProblem(target)).toBeNull();
  });

  it('refuses a full URL with a 400 that says Loupe is not an HTTP proxy, without repeating the URL', () => {
    const problem = requestTargetProblem('http://169.254.169.254/latest/meta-data?api-key=sk-secret');
    expect(problem).toMatchObject({
      status: 400,
      code: 'bad_request',
      message: expect.stringContaining('not an HTTP proxy'),
    });
    expect(problem!.message).toContain('a full URL');
    expect(problem!.message).not.toContain('169.254');
    expect(problem!.message).not.toContain('sk-secret');
  });

  it('refuses the asterisk, authority and empty forms as not a path', () => {
    for (const target of ['*', 'api.openai.com:443', '', undefined])
      expect(requestTargetProblem(target)?.message).toContain('not a path');
  });
});
