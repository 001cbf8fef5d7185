// Why a response failed, in one line a person can act on: the upstream's own error (401
// invalid_api_key, a rate limit) or the proxy's (connection refused, timeout), with the
// proxy's "Loupe proxy:" prefix dropped because the UI is Loupe already.
import type { ResponseRecord } from '../types.js';

const OK = new Set(['completed', 'in_progress', 'queued']);

export function failureReason(record: Pick<ResponseRecord, 'status' | 'error'>): string | null {
  if (OK.has(record.status)) return null;
  if (!record.error)
    return record.status === 'incomplete' ? null : `${record.status.replace(/_/g, ' ')}, no reason given`;
  const message = record.error.message.replace(/^Loupe proxy: /, '').trim();
  // The proxy's own codes say less than its message does.
  const code =
    record.error.code?.startsWith('upstream_') || record.error.code?.startsWith('proxy_') ? null : record.error.code;
  if (!code || message.includes(code)) return message || code || 'failed';
  return message ? `${code}: ${message}` : code;
}
