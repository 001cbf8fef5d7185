// Which names hold credentials: one rule for header names, query parameters and JSON
// object keys (ADR 21). A list of known names misses every gateway's own header
// (`Ocp-Apim-Subscription-Key`, `x-portkey-api-key`), so a name is judged by its words.
//
// A name is cut into words at any separator and at camelCase humps, in lower case:
// `Ocp-Apim-Subscription-Key` and `ocpApimSubscriptionKey` both read
// ocp apim subscription key. It is a credential when one word is a credential word
// (key, token, secret, password, auth, cookie, session, signature…) or ends in one of the
// glued forms (apikey, accesstoken), unless an exception below says otherwise. Plurals
// are not credential words: `input_tokens`, `x-ratelimit-remaining-tokens` and
// `authorizations` are counts or lists, not secrets.
//
// Exceptions, each keeping data a debugger's user reads:
// - the last word says the value is about a credential, not the credential itself:
//   `session_id`, `x-session-id`, `token_type`, `token_count`, `key_name`;
// - a key that only names a cache or a retry: `prompt_cache_key`, `Idempotency-Key`;
// - `x-loupe-session` (the run's label, stored in its own column and shown as its name)
//   and `Sec-WebSocket-Key` (a handshake nonce, not a credential).
// Names the user adds (`--redact NAME`, settings) are compared by their words run together,
// so `x-my-thing` also covers `X_My_Thing`, `xMyThing` and `xmything`, and no exception
// applies to them.
//
// The rule runs once per distinct name: results are cached, since bodies repeat the same
// few dozen keys (type, id, role, content, text) over and over.

const CREDENTIAL_WORDS = new Set([
  'key',
  'apikey',
  'token',
  'secret',
  'password',
  'passwd',
  'passphrase',
  'auth',
  'authorization',
  'authentication',
  'cookie',
  'session',
  'signature',
  'sig',
  'credential',
  'credentials',
]);

/** A word ending in one of these is a credential word glued to its qualifier (`accesstoken`, `clientsecret`). */
const GLUED_ENDINGS = /(?:token|secret|password|passwd|apikey|accesskey|secretkey|privatekey)$/;

/** A last word that makes the name about a credential rather than the credential. */
const DESCRIPTIVE_LAST_WORDS = new Set(['id', 'ids', 'type', 'count', 'name']);

/** Words that, right before `key`, make it a cache or retry key. */
const HARMLESS_KEY_QUALIFIERS = new Set(['cache', 'idempotency']);

/** Whole names, their words run together, that match a credential word but hold none. */
const NOT_SECRET_NAMES = new Set(['xloupesession', 'secwebsocketkey']);

/** The cache is dropped when it grows past this: keys made of data (ids as keys) must not grow it forever. */
const MAX_CACHED = 4096;

const HUMP = /([a-z0-9])([A-Z])|([A-Z]+)([A-Z][a-z])/g;
const SEPARATORS = /[^a-z0-9]+/;

/** `Ocp-Apim_subscriptionKey` becomes ['ocp', 'apim', 'subscription', 'key']. */
export function nameWords(name: string): string[] {
  return name
    .replace(HUMP, '$1$3 $2$4')
    .toLowerCase()
    .split(SEPARATORS)
    .filter((w) => w !== '');
}

function matchesRule(words: readonly string[]): boolean {
  if (NOT_SECRET_NAMES.has(words.join(''))) return false;
  const last = words[words.length - 1];
  if (words.length > 1 && last !== undefined && DESCRIPTIVE_LAST_WORDS.has(last)) return false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === 'key' && i > 0 && HARMLESS_KEY_QUALIFIERS.has(words[i - 1]!)) continue;
    if (CREDENTIAL_WORDS.has(word) || GLUED_ENDINGS.test(word)) return true;
  }
  return false;
}

/** JSON keys longer than this are not judged (json-secret-scrubber.ts): no credential's name is that long. */
export const MAX_NAME_LENGTH = 40;

/** A name the user asked to redact, checked before it is used: a letter or digit, and no longer than a judged key. */
export function checkRedactName(name: string): string | null {
  if (!nameWords(name).length) return `"${name}" is not a header, query parameter or JSON key name`;
  if (name.length > MAX_NAME_LENGTH) return `"${name}" is longer than ${MAX_NAME_LENGTH} characters`;
  return null;
}

/**
 * The credential test for names, with the user's own names added. Returns a function that
 * is cheap on names it has seen before.
 */
export function secretNameRule(extraNames: readonly string[] = []): (name: string) => boolean {
  const extra = new Set(extraNames.map((n) => nameWords(n).join('')).filter((n) => n !== ''));
  const cache = new Map<string, boolean>();
  return (name) => {
    let secret = cache.get(name);
    if (secret !== undefined) return secret;
    const words = nameWords(name);
    secret = extra.has(words.join('')) || matchesRule(words);
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(name, secret);
    return secret;
  };
}
