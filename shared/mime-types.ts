// Content types of the built renderer's files, for the two places that serve them: the
// headless HTTP server and the desktop app's custom scheme.
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
};

export function contentTypeOf(file: string): string {
  const dot = file.lastIndexOf('.');
  return (dot >= 0 && TYPES[file.slice(dot).toLowerCase()]) || 'application/octet-stream';
}
