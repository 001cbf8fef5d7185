// permessage-deflate (RFC 7692) across the proxy's two WebSocket legs. Loupe does not relay
// compressed frames as they came: each leg negotiates on its own, ws decompresses what it
// receives (so the recording holds the messages as sent), and the other leg compresses again.
// What the client sees still follows the upstream's choice:
//  - the upstream is offered deflate only when the client offered it, with the client's own
//    parameters (its first permessage-deflate offer);
//  - the client leg accepts deflate only when the upstream accepted it, answering with the
//    upstream's parameters as far as they fit the client's offer.
// An offer the `ws` server would refuse (a syntax error anywhere in the header, an unknown
// or repeated parameter, a window size outside 8..15) is declined on both legs, as any server
// may decline an extension, so it can never fail the client's handshake after the upstream
// accepted. The header grammar here is stricter than ws's (no quoted values), never looser.
// The message cap applies after decompression: ws checks maxPayload while it inflates, so a
// small frame that inflates past the cap is refused with 1009 like any oversized message.

import { isToken } from './http-token.js';

/** The `ws` PerMessageDeflate options for one leg (client side: what to offer; server side: what to accept with). */
export interface DeflateOptions {
  serverNoContextTakeover?: true;
  clientNoContextTakeover?: true;
  serverMaxWindowBits?: number;
  clientMaxWindowBits?: number | boolean;
}

type Params = Record<string, string | true>;
interface Extension {
  name: string;
  params: Params;
}

const DEFLATE = 'permessage-deflate';

/** The extensions of a Sec-WebSocket-Extensions value, or null when it is not plain tokens. */
export function parseExtensions(header: string): Extension[] | null {
  if (header !== header.trim()) return null;
  const out: Extension[] = [];
  for (const element of header.split(',')) {
    const [name, ...rest] = element.split(';').map((p) => p.replace(/^[ \t]+|[ \t]+$/g, ''));
    if (!name || !isToken(name)) return null;
    const params: Params = {};
    for (const part of rest) {
      const eq = part.indexOf('=');
      const key = eq < 0 ? part : part.slice(0, eq);
      const value = eq < 0 ? true : part.slice(eq + 1);
      if (!isToken(key) || (value !== true && !isToken(value)) || Object.hasOwn(params, key)) return null;
      params[key] = value;
    }
    out.push({ name, params });
  }
  return out;
}

interface DeflateParams {
  serverNoContextTakeover: boolean;
  clientNoContextTakeover: boolean;
  serverMaxWindowBits: number | null;
  /** true: offered without a value. */
  clientMaxWindowBits: number | true | null;
}

const windowBits = (v: string | true): number | null =>
  v !== true && /^\d+$/.test(v) && +v >= 8 && +v <= 15 ? +v : null;

/** One permessage-deflate offer or answer as ws reads it, or null where ws would refuse it. */
function deflateParams(params: Params, isOffer: boolean): DeflateParams | null {
  const out: DeflateParams = {
    serverNoContextTakeover: false,
    clientNoContextTakeover: false,
    serverMaxWindowBits: null,
    clientMaxWindowBits: null,
  };
  for (const [key, value] of Object.entries(params)) {
    if (key === 'server_no_context_takeover' || key === 'client_no_context_takeover') {
      if (value !== true) return null;
      out[key === 'server_no_context_takeover' ? 'serverNoContextTakeover' : 'clientNoContextTakeover'] = true;
    } else if (key === 'server_max_window_bits') {
      if ((out.serverMaxWindowBits = windowBits(value)) === null) return null;
    } else if (key === 'client_max_window_bits') {
      // Valueless only in an offer: it says the client can take any size the server picks.
      if (value === true && isOffer) out.clientMaxWindowBits = true;
      else if ((out.clientMaxWindowBits = windowBits(value)) === null) return null;
    } else return null;
  }
  return out;
}

/** The client's first permessage-deflate offer, or null when it made none Loupe can mirror. */
function clientOffer(clientHeader: string | undefined): DeflateParams | null {
  if (clientHeader === undefined) return null;
  const offers = parseExtensions(clientHeader)?.filter((e) => e.name === DEFLATE);
  if (!offers?.length) return null;
  // ws's server validates every deflate offer before choosing one, so one bad offer spoils all.
  const parsed = offers.map((o) => deflateParams(o.params, true));
  return parsed.every((p) => p !== null) ? parsed[0]! : null;
}

/** What to offer the upstream: the client's own offer, or false when the client made none. */
export function upstreamDeflateOffer(clientHeader: string | undefined): DeflateOptions | false {
  const offer = clientOffer(clientHeader);
  if (!offer) return false;
  const out: DeflateOptions = { clientMaxWindowBits: offer.clientMaxWindowBits ?? false };
  if (offer.serverNoContextTakeover) out.serverNoContextTakeover = true;
  if (offer.clientNoContextTakeover) out.clientNoContextTakeover = true;
  if (offer.serverMaxWindowBits !== null) out.serverMaxWindowBits = offer.serverMaxWindowBits;
  return out;
}

/**
 * What the client leg accepts with, given the client's offer and the upstream's answer
 * (its Sec-WebSocket-Extensions, undefined when it accepted no extension): false when the
 * upstream declined deflate. Each of the upstream's parameters is kept only where it fits
 * the client's offer, so the client's offer is always acceptable.
 */
export function clientDeflateAcceptance(
  clientHeader: string | undefined,
  upstreamHeader: string | undefined,
): DeflateOptions | false {
  const offer = clientOffer(clientHeader);
  if (!offer || upstreamHeader === undefined) return false;
  const extensions = parseExtensions(upstreamHeader);
  // ws on the upstream leg checked the answer already; one this stricter grammar cannot
  // read still means deflate is on, with the client's offer taken as it is.
  if (!extensions) return {};
  const answers = extensions.filter((e) => e.name === DEFLATE);
  if (!answers.length) return false;
  const answer = deflateParams(answers[0]!.params, false);
  if (!answer) return {};
  const out: DeflateOptions = {};
  if (answer.serverNoContextTakeover) out.serverNoContextTakeover = true;
  if (answer.clientNoContextTakeover) out.clientNoContextTakeover = true;
  const smwb = answer.serverMaxWindowBits;
  if (smwb !== null && (offer.serverMaxWindowBits === null || smwb <= offer.serverMaxWindowBits))
    out.serverMaxWindowBits = smwb;
  const cmwb = answer.clientMaxWindowBits;
  if (
    typeof cmwb === 'number' &&
    (offer.clientMaxWindowBits === true || (offer.clientMaxWindowBits !== null && cmwb <= offer.clientMaxWindowBits))
  )
    out.clientMaxWindowBits = cmwb;
  return out;
}
