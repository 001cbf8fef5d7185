// Small building blocks of the inspector: titled sections, key/value rows, code and JSON.
import { useState, type ReactNode } from 'react';
import { CopyButton } from '../lib/CopyButton.js';
import { prettyJson } from '../lib/format.js';

export function Section({
  title,
  children,
  actions,
  testId,
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
  testId?: string;
}) {
  return (
    <section className="border-b border-zinc-200 px-4 py-3 dark:border-zinc-800" data-testid={testId}>
      <div className="mb-1.5 flex items-center gap-2">
        <h3 className="text-[11px] font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">{title}</h3>
        <div className="ml-auto flex gap-1">{actions}</div>
      </div>
      {children}
    </section>
  );
}

export function Fields({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-0.5 text-[12.5px]">
      {rows.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-zinc-500 dark:text-zinc-400">{k}</dt>
          <dd className="min-w-0 break-words tabular-nums">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Code({ text, testId, maxHeight = 'max-h-96' }: { text: string; testId?: string; maxHeight?: string }) {
  return (
    <pre
      data-testid={testId}
      className={`${maxHeight} overflow-auto whitespace-pre-wrap break-words rounded bg-zinc-100 p-2.5 font-mono text-[12px] leading-snug dark:bg-zinc-900`}
    >
      {text}
    </pre>
  );
}

/**
 * A string that may be JSON: formatted when it parses, shown as sent when not. Only where
 * JSON is required (function call arguments) does text that fails to parse get a warning;
 * a tool's output is any string, and plain text there is normal.
 */
export function JsonText({
  text,
  testId,
  requireJson = false,
}: {
  text: string;
  testId?: string;
  requireJson?: boolean;
}) {
  const pretty = prettyJson(text);
  return (
    <div data-format={pretty.parsed ? 'json' : 'text'}>
      <Code text={pretty.text} testId={testId} />
      {requireJson && !pretty.parsed && text.trim() !== '' && (
        <p className="mt-1 text-[11px] text-amber-700 dark:text-amber-400" data-testid="not-json">
          Not valid JSON ({pretty.error}); shown as sent.
        </p>
      )}
    </div>
  );
}

export function RawJson({
  value,
  title = 'Raw JSON',
  open = false,
}: {
  value: unknown;
  title?: string;
  open?: boolean;
}) {
  const [shown, setShown] = useState(open);
  const text = JSON.stringify(value, null, 2);
  return (
    <Section
      title={title}
      testId="raw-json"
      actions={
        <>
          <CopyButton text={text} />
          <button
            type="button"
            onClick={() => setShown(!shown)}
            className="rounded px-2 py-0.5 text-[11.5px] text-blue-600 hover:bg-blue-50 dark:text-blue-400 dark:hover:bg-blue-950"
          >
            {shown ? 'Hide' : 'Show'}
          </button>
        </>
      }
    >
      {shown && <Code text={text} maxHeight="max-h-[32rem]" />}
    </Section>
  );
}
