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

/** Bytes as ISO-8859-1 text: each byte one code unit. */
export function latin1(bytes: Uint8Array): string {
  // A native decode of an ASCII head costs about a third of building the string in JS.
  if (asciiDecoder && isAscii(bytes)) return asciiDecoder.decode(bytes);
  let out = '';
  // apply() on the typed array itself: spreading it first costs an iterator per byte.
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192) as unknown as number[]);
  return out;
}

function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}
