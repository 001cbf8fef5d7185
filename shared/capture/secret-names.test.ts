import { describe, expect, it } from 'vitest';
import { checkRedactName, nameWords, secretNameRule } from './secret-names.js';

const isSecret = secretNameRule();

describe('secretNameRule', () => {
  it('takes the credentials gateways and clients send beyond the well-known headers', () => {
    for (const name of ['Ocp-Apim-Subscription-Key', 'x-portkey-api-key', 'subscription-key', 'api_key', 'token']) {
      expect(isSecret(name), name).toBe(true);
    }
  });

  it('takes the well-known headers it always took', () => {
    for (const name of [
      'Authorization',
      'proxy-authorization',
      'api-key',
      'X-Api-Key',
      'openai-api-key',
      'x-goog-api-key',
      'Cookie',
      'Set-Cookie',
    ]) {
      expect(isSecret(name), name).toBe(true);
    }
  });

  it('reads a name in any case and with any separator, camelCase included', () => {
    const spellings = [
      'api_key',
      'API-KEY',
      'Api.Key',
      'api key',
      'apiKey',
      'ApiKey',
      'APIKey',
      'apikey',
      'x-API_key',
      'XApiKey',
    ];
    for (const name of spellings) expect(isSecret(name), name).toBe(true);
    for (const name of [
      'accessToken',
      'access_token',
      'ACCESSTOKEN',
      'client_secret',
      'clientSecret',
      'x-auth-token',
      'sessionToken',
      'db_password',
      'X-Amz-Signature',
      'sig',
      'id_token',
    ]) {
      expect(isSecret(name), name).toBe(true);
    }
    expect(nameWords('Ocp-Apim_subscriptionKey')).toEqual(['ocp', 'apim', 'subscription', 'key']);
  });

  it('leaves alone the fields a debugging user reads: counts, cache keys, ids, and lookalike words', () => {
    const kept = [
      'max_output_tokens',
      'input_tokens',
      'output_tokens',
      'cached_tokens',
      'reasoning_tokens',
      'total_tokens',
      'max_tokens',
      'inputTokens',
      'x-ratelimit-remaining-tokens',
      'x-ratelimit-limit-tokens_usage_based',
      'prompt_cache_key',
      'cache-key',
      'Idempotency-Key',
      'previous_response_id',
      'session_id',
      'x-session-id',
      'sessionId',
      'token_type',
      'token_count',
      'store',
      'reasoning',
      'encrypted_content',
      'author',
      'authorizations',
      'keyboard',
      'keep-alive',
      'monkey',
      'x-loupe-session',
      'Sec-WebSocket-Key',
      'content-type',
    ];
    for (const name of kept) expect(isSecret(name), name).toBe(false);
  });

  it("adds the user's names, matched in any case and separator, over the exceptions", () => {
    const withMine = secretNameRule(['x-my-thing', 'session_id']);
    for (const name of ['x-my-thing', 'X_My_Thing', 'xMyThing', 'X-MY-THING', 'session-id'])
      expect(withMine(name), name).toBe(true);
    expect(withMine('x-my-other-thing')).toBe(false);
    expect(isSecret('x-my-thing')).toBe(false);
  });

  it('refuses a user name with nothing to match', () => {
    expect(checkRedactName('x-my-thing')).toBeNull();
    expect(checkRedactName('--')).toMatch(/is not a header, query parameter or JSON key name/);
    expect(checkRedactName('x'.repeat(41))).toMatch(/is longer than 40 characters/);
  });
});
