import { describe, expect, it } from 'vitest';
import { withoutTrailingSlashes } from './trailing-slashes.js';

describe('withoutTrailingSlashes', () => {
  it('drops every slash at the end, and only there', () => {
    expect(withoutTrailingSlashes('/v1/responses/')).toBe('/v1/responses');
    expect(withoutTrailingSlashes('/v1//responses///')).toBe('/v1//responses');
    expect(withoutTrailingSlashes('https://api.openai.com/')).toBe('https://api.openai.com');
    expect(withoutTrailingSlashes('/v1')).toBe('/v1');
    expect(withoutTrailingSlashes('///')).toBe('');
    expect(withoutTrailingSlashes('')).toBe('');
  });

  // The regex this replaces took ~0.5 s on 16 KB of slashes followed by one other character,
  // and ~7 s on 64 KB; by hand it is one pass. The bound is far from both.
  it('takes one pass over a long run of slashes', () => {
    const path = `/v1${'/'.repeat(64_000)}x`;
    const started = performance.now();
    expect(withoutTrailingSlashes(path)).toBe(path);
    expect(withoutTrailingSlashes(`${path}${'/'.repeat(64_000)}`)).toBe(path);
    expect(performance.now() - started).toBeLessThan(200);
  });
});
