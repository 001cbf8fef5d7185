// A response frame selected: what was asked (request parameters), what it used and cost,
// how long it took, and the exact bytes of its exchange.
import type { ResponseRecord } from '../../shared/trace/types.js';
import { omit } from '../../shared/trace/json.js';
import { formatCount, formatUs } from '../lib/format.js';
import { StatusBadge } from '../runs/status.js';
import { ExchangeBytes } from './ExchangeBytes.js';
import { Code, Fields, RawJson, Section } from './parts.js';

export function ResponseDetails({ record, index, notes }: { record: ResponseRecord; index: number; notes: string[] }) {
  const u = record.usage;
  const params = omit(record.request.params, 'input');
  return (
    <div data-testid="response-details">
      <header className="border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
        <div className="flex items-center gap-2">
          <h2 className="text-[15px] font-semibold">Response #{index + 1}</h2>
          <StatusBadge status={record.status} />
        </div>
        <code className="mt-0.5 block truncate text-[11.5px] text-zinc-500" title={record.responseId}>
          {record.responseId}
        </code>
      </header>
      {record.error && (
        <Section title="Error">
          <p className="text-[12.5px] text-red-700 dark:text-red-400">
            {record.error.code ? <code>{record.error.code}</code> : null} {record.error.message}
          </p>
        </Section>
      )}
      <Section title="Timing">
        <Fields
          rows={[
            [
              'started',
              new Date(record.exchange.startedAt + (record.timings.startUs ?? 0) / 1000)
                .toISOString()
                .replace('T', ' ')
                .replace('Z', ' UTC'),
            ],
            ['first token', formatUs(record.timings.ttftUs)],
            ['duration', formatUs(record.timings.durationUs)],
            ['streamed', record.streamed ? `yes, ${record.events.length} events` : 'no'],
            [
              'transport',
              `${record.exchange.transport}${record.exchange.agent ? ` · agent ${record.exchange.agent}` : ''}`,
            ],
          ]}
        />
      </Section>
      <Section title="Usage">
        {u ? (
          <Fields
            rows={[
              [
                'input',
                `${formatCount(u.inputTokens)} tokens${u.cachedTokens ? ` (${formatCount(u.cachedTokens)} cached)` : ''}`,
              ],
              [
                'output',
                `${formatCount(u.outputTokens)} tokens${u.reasoningTokens ? ` (${formatCount(u.reasoningTokens)} reasoning)` : ''}`,
              ],
              ['total', `${formatCount(u.totalTokens)} tokens`],
            ]}
          />
        ) : (
          <p className="text-[12.5px] text-zinc-500">
            No usage reported{record.status === 'in_progress' ? ' yet' : ''}.
          </p>
        )}
      </Section>
      <Section title="Request parameters" testId="request-params">
        <Code text={JSON.stringify(params, null, 2)} />
        <p className="mt-1 text-[11.5px] text-zinc-500">
          {record.request.input.length} input item{record.request.input.length === 1 ? '' : 's'}
          {record.request.previousResponseId ? ` · continues ${record.request.previousResponseId}` : ''}
        </p>
      </Section>
      {notes.length > 0 && (
        <Section title="Notes">
          <ul className="list-disc pl-5 text-[12px] text-amber-700 dark:text-amber-400">
            {notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        </Section>
      )}
      <ExchangeBytes key={record.exchangeId} exchangeId={record.exchangeId} />
      <RawJson value={record} title="Record (normalized)" />
    </div>
  );
}
