// "Copy as cURL" (renderer/lib/copy-request.ts) run through a real bash: the quoting holds
// for quotes, $ and backticks, and the key comes from the environment, never the record.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { asCurl } from '../renderer/lib/copy-request.js';
import { exchangeRequest as exchange } from '../renderer/test/fixtures.js';

describe('copy as cURL', () => {
  it('cURL: the shell gets the exact body and headers, the key from $OPENAI_API_KEY, never the recorded hint', () => {
    const curl = asCurl(exchange);
    expect(curl).not.toContain('…wxyz');
    // Run it through bash with `curl` replaced by a function that prints its arguments.
    const out = execFileSync('bash', ['-c', `curl() { printf '%s\\n' "$@"; }\n${curl}`], {
      env: { OPENAI_API_KEY: 'sk-from-env', PATH: process.env.PATH },
    }).toString();
    const args = out.trimEnd().split('\n');
    expect(args[0]).toBe('https://api.openai.com/v1/responses');
    expect(args).toContain('Authorization: Bearer sk-from-env');
    expect(args).toContain("X-Note: it's $HOME `x`");
    expect(args).toContain('Content-Type: application/json');
    expect(args[args.length - 1]).toBe(exchange.request.text);
    expect(out).not.toMatch(/Host:|Content-Length|x-loupe/i);
  });
});
