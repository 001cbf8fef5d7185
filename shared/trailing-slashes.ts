// `/\/+$/` looks harmless but is quadratic: unanchored, it is retried from every slash of a
// long run that ends in something else. A request path of 16 KB of slashes held the event
// loop for about a second in route parsing (ADR 9), so paths are trimmed by hand.

/** `text` without the slashes it ends with. */
export function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x2f) end--;
  return end === text.length ? text : text.slice(0, end);
}
