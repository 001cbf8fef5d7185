// The exact exchange behind a response: method, path, status, headers (secrets already
// redacted by the recorder), the bodies as received and when each chunk arrived.
import { useState } from 'react';
import type { BodyView, ExchangeDetail } from '../../shared/api/types.js';
import { useController } from '../app/controller-context.js';
import { CopyButton } from '../lib/CopyButton.js';
import { asCurl, asFetch, KEY_VARIABLE } from '../lib/copy-request.js';
import { formatBytes, formatUs } from '../lib/format.js';
import { FramesList } from './FramesList.js';
import { Code, Fields, Section } from './parts.js';

function Body({ title, body }: { title: string; body: BodyView }) {
  const first = body.chunks[0];
  const lastChunk = body.chunks[body.chunks.length - 1];
  return (
    <Section title={`${title} · ${formatBytes(body.bytes)}`} actions={<CopyButton text={body.text} />}>
      <p className="mb-1 text-[11.5px] text-zinc-500">
        {body.chunkCount} chunk{body.chunkCount === 1 ? '' : 's'}
        {first && lastChunk ? `, ${formatUs(first.tUs)} → ${formatUs(lastChunk.tUs)}` : ''}
        {body.truncated ? ' · cut by the store size cap' : ''}
        {body.cutForView ? ` · showing ${formatBytes(body.text.length)} of ${formatBytes(body.totalChars)}` : ''}
      </p>
      {body.decodeError && (
        <p className="mb-1 text-[12px] text-amber-700 dark:text-amber-400">Could not decode: {body.decodeError}</p>
      )}
      <Code text={body.text || '(empty)'} testId={`exchange-${title.toLowerCase()}`} />
    </Section>
  );
}

function Headers({ title, headers }: { title: string; headers: Array<[string, string]> }) {
  return (
    <Section title={title}>
      <Code text={headers.map(([k, v]) => `${k}: ${v}`).join('\n')} maxHeight="max-h-48" />
    </Section>
  );
}

/** Keyed by its exchange where used, so another exchange starts closed, with nothing loaded. */
export function ExchangeBytes({ exchangeId }: { exchangeId: number }) {
  const controller = useController();
  const [state, setState] = useState<{ detail: ExchangeDetail | null; error: string | null; loading: boolean }>({
    detail: null,
    error: null,
    loading: false,
  });
  const [open, setOpen] = useState(false);
  const load = () => {
    setOpen(true);
    setState((s) => ({ ...s, loading: true }));
    controller.api
      .invoke('exchanges.get', { exchangeId })
      .then((detail) => setState({ detail, error: null, loading: false }))
      .catch((err: Error) => setState({ detail: null, error: err.message, loading: false }));
  };
  if (!open) {
    return (
      <Section title="Exchange bytes">
        <button
          type="button"
          onClick={load}
          data-testid="load-exchange"
          className="rounded border border-zinc-300 px-2 py-1 text-[12px] hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
        >
          Show the exact request and response of exchange #{exchangeId}
        </button>
      </Section>
    );
  }
  const d = state.detail;
  if (!d)
    return (
      <Section title="Exchange bytes">
        {state.error ? (
          <p className="text-[12.5px] text-red-600">{state.error}</p>
        ) : (
          <p className="text-[12.5px] text-zinc-500">Loading…</p>
        )}
      </Section>
    );
  return (
    <div data-testid="exchange-bytes">
      <Section
        title={`Exchange #${d.id}`}
        actions={
          d.transport === 'http' && !d.request.cutForView && !d.request.truncated ? (
            <span
              className="flex gap-1"
              title={`The API key is left as $${KEY_VARIABLE}: Loupe never kept it`}
              data-testid="copy-request"
            >
              <CopyButton text={asCurl(d)} label="Copy as cURL" />
              <CopyButton text={asFetch(d)} label="Copy as fetch" />
            </span>
          ) : null
        }
      >
        <Fields
          rows={[
            ['request', `${d.method} ${d.path}`],
            ['upstream', d.upstream],
            ['status', d.status === null ? 'no response' : `${d.status} ${d.statusText ?? ''}`],
            ['ended', `${d.state}${d.error ? `: ${d.error}` : ''}`],
            ['headers at', formatUs(d.responseHeadUs)],
            ['ended at', formatUs(d.endUs)],
            ['transport', d.transport],
          ]}
        />
        {d.notes.length > 0 && (
          <ul className="mt-2 list-disc pl-5 text-[12px] text-amber-700 dark:text-amber-400">
            {d.notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        )}
      </Section>
      <Headers title="Request headers" headers={d.requestHeaders} />
      <Body title="Request" body={d.request} />
      {d.responseHeaders && <Headers title="Response headers" headers={d.responseHeaders} />}
      <Body title="Response" body={d.response} />
      {d.frames.length > 0 && (
        <Section
          title={`WebSocket frames (${d.frames.length}${d.framesOmitted ? ` of ${d.frames.length + d.framesOmitted}` : ''})`}
        >
          <FramesList frames={d.frames} />
        </Section>
      )}
    </div>
  );
}
