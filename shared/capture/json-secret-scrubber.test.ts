import { describe, expect, it } from 'vitest';
import { JsonSecretScrubber, SecretKeyJudge } from './json-secret-scrubber.js';
import { secretNameRule } from './secret-names.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function scrub(
  text: string,
  pieces: number[] = [],
  scrubber = new JsonSecretScrubber(),
): { text: string; masked: number } {
  const bytes = encoder.encode(text);
  let at = 0;
  for (const cut of [...pieces, bytes.length]) {
    scrubber.scrub(bytes.subarray(at, cut));
    at = cut;
  }
  return { text: decoder.decode(bytes), masked: scrubber.masked };
}

const MCP_REQUEST = JSON.stringify({
  model: 'gpt-5',
  input: 'what changed?',
  tools: [
    {
      type: 'mcp',
      server_label: 'gh',
      server_url: 'https://mcp.example.com',
      authorization: 'gho_0123456789abcdefSECRET',
      require_approval: 'never',
    },
    {
      type: 'mcp',
      server_label: 'internal',
      headers: { Authorization: 'Bearer sk-live-SECRET-"quoted"-é', 'X-Trace': 'keep-me' },
    },
  ],
});

describe('JsonSecretScrubber', () => {
  it("masks an MCP tool's authorization and its secret headers, and nothing else", () => {
    const { text, masked } = scrub(MCP_REQUEST);
    expect(masked).toBe(2);
    expect(text).not.toContain('SECRET');
    expect(text.length).toBe(MCP_REQUEST.length + 1); // é is two bytes, masked as two '*'
    expect(encoder.encode(text).length).toBe(encoder.encode(MCP_REQUEST).length);
    const body = JSON.parse(text);
    expect(body.tools[0].authorization).toMatch(/^\*+$/);
    expect(body.tools[0].authorization).toHaveLength('gho_0123456789abcdefSECRET'.length);
    expect(body.tools[1].headers.Authorization).toMatch(/^\*+$/);
    expect(body.tools[1].headers['X-Trace']).toBe('keep-me');
    expect({ ...body, tools: undefined }).toEqual({ ...JSON.parse(MCP_REQUEST), tools: undefined });
    expect(body.tools[0].server_url).toBe('https://mcp.example.com');
  });

  it('finds a key or a value split at any byte, as reads and batches split bodies', () => {
    const whole = scrub(MCP_REQUEST).text;
    const length = encoder.encode(MCP_REQUEST).length;
    for (let cut = 1; cut < length; cut++) expect(scrub(MCP_REQUEST, [cut]).text).toBe(whole);
    expect(
      scrub(
        MCP_REQUEST,
        Array.from({ length: length - 1 }, (_, i) => i + 1),
      ).text,
    ).toBe(whole);
  });

  it('matches keys in any case and with space around the colon', () => {
    const { text, masked } = scrub('{"API-KEY" :\n "abc123", "x-api-key":"def", "Cookie": "a=b"}');
    expect(masked).toBe(3);
    expect(JSON.parse(text)).toEqual({ 'API-KEY': '******', 'x-api-key': '***', Cookie: '***' });
  });

  it('leaves secret-looking words alone where they are not object keys', () => {
    const texts = [
      '{"type":"authorization","note":"keep"}',
      '["authorization","keep"]',
      // A tool call's arguments are JSON inside a string: text, not keys.
      JSON.stringify({ arguments: JSON.stringify({ authorization: 'keep' }) }),
      '{"authorization":null,"next":"keep"}',
      '{"authorization":12,"next":"keep"}',
      '{"authorizations":"keep"}',
    ];
    for (const input of texts) expect(scrub(input)).toEqual({ text: input, masked: 0 });
  });

  it('keeps going after an escaped quote inside a masked value', () => {
    const input = '{"authorization":"a\\"b\\\\","after":"keep"}';
    for (let cut = 0; cut <= input.length; cut++) {
      expect(JSON.parse(scrub(input, [cut]).text)).toEqual({ authorization: '******', after: 'keep' });
    }
  });

  it('carries on from one WebSocket message to the next', () => {
    const scrubber = new JsonSecretScrubber();
    const first = encoder.encode('{"type":"response.create","tools":[{"type":"mcp","authorization":"tok-1"}]}');
    const second = encoder.encode('{"type":"response.create","tools":[{"type":"mcp","authorization":"tok-2"}]}');
    scrubber.scrub(first);
    scrubber.scrub(second);
    expect(decoder.decode(first) + decoder.decode(second)).not.toMatch(/tok-/);
    expect(scrubber.masked).toBe(2);
  });

  it('masks credentials clients put in their own fields: api_key, metadata.token, camelCase', () => {
    const body = {
      model: 'gpt-5',
      api_key: 'sk-body-key-0123456789',
      metadata: { token: 'meta-token-0123456789', user: 'u-1' },
      extra: { clientSecret: 'cs-0123', X_Auth_Token: 'xat-0123' },
    };
    const input = JSON.stringify(body);
    const { text, masked } = scrub(input);
    expect(masked).toBe(4);
    expect(text).not.toMatch(/sk-body|meta-token|cs-0123|xat-0123/);
    expect(JSON.parse(text)).toEqual({
      ...body,
      api_key: '*'.repeat(body.api_key.length),
      metadata: { token: '*'.repeat(body.metadata.token.length), user: 'u-1' },
      extra: { clientSecret: '*******', X_Auth_Token: '********' },
    });
  });

  it('keeps counts, cache keys, ids and schemas: only string values under credential names are masked', () => {
    const body = {
      model: 'gpt-5',
      max_output_tokens: 512,
      prompt_cache_key: 'tenant-42',
      previous_response_id: 'resp_abc',
      store: false,
      reasoning: { effort: 'low' },
      usage: {
        input_tokens: 10,
        input_tokens_details: { cached_tokens: 4 },
        output_tokens_details: { reasoning_tokens: 3 },
      },
      metadata: { session_id: 'chat-7', token_count: '12' },
      token: 77,
      secret: true,
      password: null,
      tools: [
        {
          type: 'function',
          name: 'login',
          parameters: { type: 'object', properties: { password: { type: 'string' } } },
        },
      ],
    };
    const input = JSON.stringify(body);
    expect(scrub(input)).toEqual({ text: input, masked: 0 });
  });

  it("masks the user's own names too, in any case and separator", () => {
    const input = '{"x-my-thing":"mine-0123","X_My_Thing":"mine-4567","other":"keep"}';
    const { text, masked } = scrub(
      input,
      [],
      new JsonSecretScrubber(new SecretKeyJudge(secretNameRule(['x-my-thing']))),
    );
    expect(masked).toBe(2);
    expect(JSON.parse(text)).toEqual({ 'x-my-thing': '*********', X_My_Thing: '*********', other: 'keep' });
    expect(scrub(input).masked).toBe(0);
  });
});
