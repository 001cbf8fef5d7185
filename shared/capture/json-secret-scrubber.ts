// Masks secrets in the JSON a client sends before it is stored. Some credentials ride in
// the body, not in HTTP headers: an MCP tool's `authorization` (an OAuth token) and its
// `headers` ({"Authorization": "Bearer …"}), in a request body or a WebSocket
// `response.create`; other clients put keys in `metadata` or their own fields (`api_key`).
// Any object key whose name holds a credential (secret-names.ts) has its string value
// masked; numbers, booleans, null, objects and arrays under it are kept (`"password":
// {"type":"string"}` is a tool's schema, and token counts are not secrets).
//
// Streaming: fed a body in pieces, in order, it keeps its state between them, so a key or
// a value split across reads or batches is still found. It masks in place, byte for byte
// with '*': the stored body keeps its length, so chunk marks stay true, and stays valid
// JSON (an escape becomes two '*', a multi-byte character one '*' per byte). The value is
// masked whole; unlike a header's hint, its end is not known until it has gone by.
// Only object keys count: a secret-looking name inside a string (a tool's arguments are
// JSON in a string) is text, and is left alone.
import { MAX_NAME_LENGTH, secretNameRule } from './secret-names.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const STAR = 0x2a;
/**
 * Longer keys are not judged (secret-names.ts refuses longer names of the user's): past
 * this a string is no key's name and crosses the fast loop, so text costs what it did
 * before names were judged by rule (64 cost 10-20% more on a key-dense body). Keys
 * outside ASCII are not collected either.
 */
const MAX_KEY_BYTES = MAX_NAME_LENGTH;
const DEFAULT_RULE = secretNameRule();

// Where the scrubber is in the JSON text.
const OUTSIDE = 0;
const IN_STRING = 1;
const AFTER_STRING = 2;
const AFTER_SECRET_KEY = 3;
const IN_SECRET = 4;

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

/**
 * Judges keys by their bytes, remembering each verdict by a hash of the key checked
 * against its text: a key seen before (and bodies repeat type, id, role, content, text
 * thousands of times) costs a short loop and one lookup, with no string built. One judge
 * serves every exchange of a recording session.
 */
export class SecretKeyJudge {
  private readonly verdicts = new Map<number, { name: string; secret: boolean }>();

  constructor(private readonly isSecret: (name: string) => boolean = DEFAULT_RULE) {}

  /** Whether the first `length` bytes of `key` (ASCII) name a credential. */
  judge(key: Uint8Array, length: number): boolean {
    let hash = 0x811c9dc5;
    for (let i = 0; i < length; i++) hash = Math.imul(hash ^ key[i]!, 0x01000193);
    // Kept to 30 bits, a small integer to V8, so the lookup does not box it.
    hash &= 0x3fffffff;
    const known = this.verdicts.get(hash);
    if (known && sameText(known.name, key, length)) return known.secret;
    const name = String.fromCharCode.apply(null, Array.from(key.subarray(0, length)));
    const secret = this.isSecret(name);
    // Keys made of data (ids as keys) must not grow it without end.
    if (this.verdicts.size >= MAX_VERDICTS) this.verdicts.clear();
    this.verdicts.set(hash, { name, secret });
    return secret;
  }
}

const MAX_VERDICTS = 4096;
const DEFAULT_JUDGE = new SecretKeyJudge();

function sameText(name: string, key: Uint8Array, length: number): boolean {
  if (name.length !== length) return false;
  for (let i = 0; i < length; i++) if (name.charCodeAt(i) !== key[i]) return false;
  return true;
}

export class JsonSecretScrubber {
  private mode = OUTSIDE;
  /** The previous byte, inside a string, was an unpaired backslash. */
  private escaped = false;
  private readonly key = new Uint8Array(MAX_KEY_BYTES);
  private keyLength = 0;
  /** The string being read can no longer be a secret key (too long, or escaped). */
  private notKey = false;
  /** Secret values masked so far. */
  masked = 0;

  /** `keys` judges each key's name; by default by the built-in rule alone. */
  constructor(private readonly keys: SecretKeyJudge = DEFAULT_JUDGE) {}

  /**
   * Masks the secrets in the next piece of the body, in place. One pass, byte by byte,
   * with the state in locals: the loop stays simple enough for the JIT.
   */
  scrub(bytes: Uint8Array): void {
    const key = this.key;
    let mode = this.mode;
    let escaped = this.escaped;
    let keyLength = this.keyLength;
    let notKey = this.notKey;
    const n = bytes.length;
    for (let i = 0; i < n; i++) {
      // Long stretches (between strings, inside one that can no longer be a key) are
      // crossed by tight loops: most of a body is text.
      if (mode === OUTSIDE) while (i < n && bytes[i] !== QUOTE) i++;
      else if (mode === IN_STRING && notKey && !escaped)
        while (i < n && bytes[i] !== QUOTE && bytes[i] !== BACKSLASH) i++;
      if (i === n) break;
      const b = bytes[i]!;
      if (mode === OUTSIDE) {
        if (b === QUOTE) {
          mode = IN_STRING;
          escaped = false;
          keyLength = 0;
          notKey = false;
        }
      } else if (mode === IN_STRING) {
        if (escaped) escaped = false;
        else if (b === BACKSLASH) escaped = notKey = true;
        else if (b === QUOTE) mode = AFTER_STRING;
        else if (notKey) continue;
        else if (keyLength < MAX_KEY_BYTES && b < 0x80) key[keyLength++] = b;
        else notKey = true;
      } else if (mode === IN_SECRET) {
        if (escaped) escaped = false;
        else if (b === BACKSLASH) escaped = true;
        else if (b === QUOTE) {
          mode = OUTSIDE;
          continue;
        }
        bytes[i] = STAR;
      } else if (!isSpace(b)) {
        // After a string, ':' makes it a key; after a secret key, a string is its value.
        // Anything else goes back to reading the text as usual (null, an object of headers,
        // the next item), and this byte is read again in that light.
        if (mode === AFTER_STRING && b === COLON) {
          mode = !notKey && keyLength > 0 && this.keys.judge(key, keyLength) ? AFTER_SECRET_KEY : OUTSIDE;
        } else if (mode === AFTER_SECRET_KEY && b === QUOTE) {
          mode = IN_SECRET;
          escaped = false;
          this.masked++;
        } else {
          mode = OUTSIDE;
          i--;
        }
      }
    }
    this.mode = mode;
    this.escaped = escaped;
    this.keyLength = keyLength;
    this.notKey = notKey;
  }
}
