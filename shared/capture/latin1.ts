// Header bytes as text, byte for byte, as Node's own HTTP parser reads them (ISO-8859-1).
// TextDecoder's 'latin1' label is really windows-1252, which differs at 0x80-0x9F, so it
// is only used where the two agree: heads that are all ASCII, which is nearly all of them.

/** Absent only where the runtime has no windows-1252 decoder (small-ICU builds); the slow path covers that. */
const asciiDecoder = (() => {
  try {
    return new TextDecoder('windows-1252');
  } catch {
    return null;
  }
})();

/** Anything outside ASCII, where windows-1252 and ISO-8859-1 part ways. */
// eslint-disable-next-line no-control-regex -- NUL is ASCII, as every byte below 0x80 is
const NON_ASCII = /[^\x00-\x7f]/;

/** Bytes as ISO-8859-1 text: each byte one code unit. */
export function latin1(bytes: Uint8Array): string {
  // A native decode of an ASCII head costs about a third of building the string in JS. It
  // is checked afterwards with a regex, not before with a loop over the bytes: heads are
  // read once per request, by code V8 may not have optimized yet, and there a JS loop over
  // 300 bytes cost more than the rest of reading the head (ADR 11).
  if (asciiDecoder) {
    const text = asciiDecoder.decode(bytes);
    if (!NON_ASCII.test(text)) return text;
  }
  let out = '';
  // apply() on the typed array itself: spreading it first costs an iterator per byte.
  for (let i = 0; i < bytes.length; i += 8192)
    out += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192) as unknown as number[]);
  return out;
}
