// The desktop page's Content-Security-Policy, sent with every file of the app scheme.
// Scripts and styles only from the app itself (React Flow and Tailwind set inline style
// attributes, hence 'unsafe-inline' for styles, never for scripts); images may be data:
// or blob: URLs because recorded image results arrive as base64; no network at all: the
// page talks to Loupe over IPC, and recorded content must not be able to phone home.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "media-src 'none'",
  "object-src 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
