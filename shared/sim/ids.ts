// Ids that look like OpenAI's but are deterministic: the n-th id of a kind from a fresh
// simulator is always simId(kind, n), so tests can assert exact ids. The counter is
// embedded at the end, which keeps every id unique; the rest is filler from a PRNG
// seeded by (kind, n) so ids do not look like a column of zeros.
import { seededRandom } from '../seeded-random.js';

export type SimIdKind =
  | 'resp'
  | 'msg'
  | 'fc'
  | 'rs'
  | 'call'
  | 'chatcmpl'
  | 'req'
  // Kinds whose prefix no public recording shows; chosen to read like their siblings.
  | 'cmp'
  | 'prog'
  | 'po'
  | 'ws'
  | 'mac'
  | 'mco'
  | 'am'
  | 'steer';

const HEX = '0123456789abcdef';
const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Shape per kind, from real traffic: prefix, alphabet, total length of the random part. */
const SHAPES: Record<SimIdKind, { prefix: string; alphabet: string; length: number }> = {
  resp: { prefix: 'resp_', alphabet: HEX, length: 48 },
  msg: { prefix: 'msg_', alphabet: HEX, length: 48 },
  fc: { prefix: 'fc_', alphabet: HEX, length: 48 },
  rs: { prefix: 'rs_', alphabet: HEX, length: 48 },
  call: { prefix: 'call_', alphabet: ALNUM, length: 24 },
  chatcmpl: { prefix: 'chatcmpl-', alphabet: ALNUM, length: 29 },
  req: { prefix: 'req_', alphabet: HEX, length: 32 },
  cmp: { prefix: 'cmp_', alphabet: HEX, length: 48 },
  prog: { prefix: 'prog_', alphabet: HEX, length: 48 },
  po: { prefix: 'po_', alphabet: HEX, length: 48 },
  ws: { prefix: 'ws_', alphabet: HEX, length: 48 },
  mac: { prefix: 'mac_', alphabet: HEX, length: 48 },
  mco: { prefix: 'mco_', alphabet: HEX, length: 48 },
  am: { prefix: 'am_', alphabet: HEX, length: 48 },
  steer: { prefix: 'steer_', alphabet: ALNUM, length: 24 },
};

/** Digits of the counter suffix: 8 hex digits or 6 base-62 digits, both > 4e9 ids. */
const COUNTER_DIGITS = 8;
const COUNTER_DIGITS_ALNUM = 6;

function seedOf(kind: string, n: number): number {
  let h = 2166136261;
  for (let i = 0; i < kind.length; i++) h = Math.imul(h ^ kind.charCodeAt(i), 16777619);
  return (h ^ Math.imul(n, 2654435761)) >>> 0;
}

function digits(n: number, alphabet: string, width: number): string {
  let out = '';
  let rest = n;
  for (let i = 0; i < width; i++) {
    out = alphabet.charAt(rest % alphabet.length) + out;
    rest = Math.floor(rest / alphabet.length);
  }
  return out;
}

/** The n-th id (n >= 1) of a kind. */
export function simId(kind: SimIdKind, n: number): string {
  const { prefix, alphabet, length } = SHAPES[kind];
  const width = alphabet === HEX ? COUNTER_DIGITS : COUNTER_DIGITS_ALNUM;
  const random = seededRandom(seedOf(kind, n));
  let filler = '';
  for (let i = 0; i < length - width; i++) {
    filler += alphabet.charAt(Math.floor(random() * alphabet.length));
  }
  return prefix + filler + digits(n, alphabet, width);
}

/**
 * Per-server id counters, one per kind, starting at 1, or after `offset`: a simulator
 * continuing a recording made against another one (a fork's live tail) must not hand out
 * the ids that recording holds.
 */
export class SimIds {
  private readonly counters = new Map<SimIdKind, number>();

  constructor(private readonly offset = 0) {}

  next(kind: SimIdKind): string {
    const n = (this.counters.get(kind) ?? this.offset) + 1;
    this.counters.set(kind, n);
    return simId(kind, n);
  }
}
