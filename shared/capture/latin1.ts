/** Bytes as ISO-8859-1, as Node's own parser reads header bytes (TextDecoder's 'latin1' is windows-1252). */
export function latin1(bytes: Uint8Array): string {
  let out = '';
  // apply() on the typed array itself: spreading it first costs an iterator per byte.
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192) as unknown as number[]);
  return out;
}
