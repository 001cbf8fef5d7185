// The typed view of one item: text as Markdown, reasoning summaries (or what is hidden),
// tool arguments as formatted JSON with the output that answered them, hosted tool details
// (queries, code, results, images), and the raw JSON of anything, unknown types included.
import type { ReactNode } from 'react';
import type { GraphNode } from '../../shared/trace/graph/types.js';
import { contentText, outputText } from '../../shared/trace/item-text.js';
import { arr, obj, str } from '../../shared/trace/json.js';
import type { JsonObject, ResponseRecord } from '../../shared/trace/types.js';
import { formatCount } from '../lib/format.js';
import { Markdown } from './Markdown.js';
import { Code, Fields, JsonText, Section } from './parts.js';

export interface ItemContext {
  node: GraphNode;
  record: ResponseRecord | undefined;
  /** The node answering this call, or the call this output answers. */
  partner: GraphNode | undefined;
  /** Visible characters during replay; null for all. */
  partial: number | null;
  goTo(id: string): void;
}

const cut = (text: string, partial: number | null) => (partial === null ? text : `${text.slice(0, partial)}▍`);

function outputValue(raw: JsonObject): string {
  const out = raw.output;
  if (typeof out === 'string') return out;
  if (out === undefined) return outputText(raw);
  return JSON.stringify(out);
}

function PartnerLink({ ctx, label }: { ctx: ItemContext; label: string }) {
  if (!ctx.partner) return null;
  return (
    <button
      type="button"
      onClick={() => ctx.goTo(ctx.partner!.id)}
      title={`${label}: ${ctx.partner.label}`}
      className="mt-1 block w-full truncate text-left text-[12px] text-blue-600 hover:underline dark:text-blue-400"
      data-testid="partner-link"
    >
      {label}: {ctx.partner.label}
    </button>
  );
}

function Message({ ctx }: { ctx: ItemContext }) {
  const raw = ctx.node.item.raw;
  const text = contentText(raw.content);
  const refusal = arr(raw.content).some((p) => str(obj(p)?.type) === 'refusal');
  const images = arr(raw.content).filter((p) => str(obj(p)?.type) === 'input_image');
  return (
    <Section title={`${str(raw.role) ?? 'message'}${refusal ? ' · refusal' : ''}`} testId="message-text">
      {text ? (
        <Markdown text={cut(text, ctx.partial)} />
      ) : (
        <p className="text-[12.5px] text-zinc-500">No text content.</p>
      )}
      {images.length > 0 && (
        <p className="mt-2 text-[12px] text-zinc-500">{images.length} image input(s); see the raw JSON.</p>
      )}
    </Section>
  );
}

function Reasoning({ ctx }: { ctx: ItemContext }) {
  const raw = ctx.node.item.raw;
  const summary = arr(raw.summary)
    .map((s) => str(obj(s)?.text) ?? '')
    .filter(Boolean);
  const content = contentText(raw.content);
  const encrypted = typeof raw.encrypted_content === 'string';
  const usage = ctx.record?.usage;
  const alone = (ctx.record?.output.filter((o) => o.type === 'reasoning').length ?? 0) <= 1;
  const tokens = usage?.reasoningTokens
    ? `${formatCount(usage.reasoningTokens)} tokens${alone ? '' : ' across this response'}`
    : 'token count unknown';
  return (
    <Section title="Reasoning" testId="reasoning">
      {summary.length > 0 && <Markdown text={cut(summary.join('\n\n'), ctx.partial)} />}
      {!summary.length && content && <Markdown text={cut(content, ctx.partial)} />}
      {!summary.length && !content && (
        <p
          className="rounded bg-violet-50 px-2.5 py-2 text-[12.5px] text-violet-900 dark:bg-violet-950/50 dark:text-violet-200"
          data-testid="reasoning-hidden"
        >
          {encrypted ? `Encrypted reasoning, ${tokens}.` : `Reasoning hidden: no summary was returned (${tokens}).`} Ask
          for <code>reasoning.summary</code> in the request to see a summary.
        </p>
      )}
    </Section>
  );
}

function Call({ ctx }: { ctx: ItemContext }) {
  const raw = ctx.node.item.raw;
  const args = str(raw.arguments) ?? str(raw.input) ?? (raw.action !== undefined ? JSON.stringify(raw.action) : '');
  return (
    <>
      <Section title="Call">
        <Fields
          rows={[
            ['name', <code key="n">{str(raw.name) ?? ctx.node.type}</code>],
            ...(raw.server_label !== undefined ? [['server', str(raw.server_label)] as [string, ReactNode]] : []),
            ['call_id', <code key="c">{ctx.node.callId ?? '—'}</code>],
            ['status', str(raw.status) ?? '—'],
          ]}
        />
      </Section>
      {typeof raw.code === 'string' ? (
        <Section title="Code" testId="program-code">
          <Code text={cut(raw.code, ctx.partial)} />
        </Section>
      ) : (
        <Section title={ctx.node.type === 'custom_tool_call' ? 'Input' : 'Arguments'} testId="tool-arguments-section">
          <JsonText
            text={cut(args, ctx.partial)}
            testId="tool-arguments"
            requireJson={ctx.node.type === 'function_call' && ctx.partial === null}
          />
        </Section>
      )}
      {(raw.output !== undefined || raw.error !== undefined) && (
        <Section title="Result">
          {raw.error ? (
            <Code text={String(typeof raw.error === 'string' ? raw.error : JSON.stringify(raw.error))} />
          ) : (
            <JsonText text={outputValue(raw)} />
          )}
        </Section>
      )}
      {ctx.partner ? (
        <Section title="Output">
          <JsonText text={outputValue(ctx.partner.item.raw)} testId="tool-output" />
          <PartnerLink ctx={ctx} label="Go to output" />
        </Section>
      ) : (
        ctx.node.kind === 'tool_call' && (
          <Section title="Output">
            <p className="text-[12.5px] text-zinc-500">No output for this call in the run yet.</p>
          </Section>
        )
      )}
    </>
  );
}

function Output({ ctx }: { ctx: ItemContext }) {
  return (
    <Section title="Output" testId="tool-output-section">
      <JsonText text={outputValue(ctx.node.item.raw)} testId="tool-output" />
      <PartnerLink ctx={ctx} label="Answers" />
    </Section>
  );
}

function Hosted({ ctx }: { ctx: ItemContext }) {
  const raw = ctx.node.item.raw;
  const rows: Array<[string, ReactNode]> = [['status', str(raw.status) ?? '—']];
  const action = obj(raw.action);
  if (action) {
    if (str(action.query)) rows.push(['query', str(action.query)]);
    if (str(action.url)) rows.push(['url', str(action.url)]);
    if (str(action.type)) rows.push(['action', str(action.type)]);
  }
  const queries = arr(raw.queries)
    .map((q) => str(q))
    .filter(Boolean);
  if (queries.length) rows.push(['queries', queries.join(' · ')]);
  const sources = arr(action?.sources)
    .map((s) => str(obj(s)?.url))
    .filter(Boolean) as string[];
  const results = arr(raw.results)
    .map((r) => obj(r))
    .filter((r): r is JsonObject => r !== null);
  const outputs = arr(raw.outputs)
    .map((o) => obj(o))
    .filter((o): o is JsonObject => o !== null);
  const image = str(raw.result);
  const code = str(raw.code);
  return (
    <>
      <Section title={ctx.node.type.replace(/_/g, ' ')}>
        <Fields rows={rows} />
      </Section>
      {code && (
        <Section title="Code">
          <Code text={cut(code, ctx.partial)} />
        </Section>
      )}
      {sources.length > 0 && (
        <Section title="Sources">
          <ul className="list-disc pl-5 text-[12px]">
            {sources.map((u) => (
              <li key={u} className="break-all">
                {u}
              </li>
            ))}
          </ul>
        </Section>
      )}
      {results.length > 0 && (
        <Section title="Results">
          {results.map((r, i) => (
            <div key={i} className="mb-2 text-[12px]">
              <div className="font-medium">
                {str(r.filename) ?? str(r.file_id) ?? `result ${i + 1}`}
                {typeof r.score === 'number' ? ` · score ${r.score.toFixed(3)}` : ''}
              </div>
              {str(r.text) && <p className="line-clamp-4 text-zinc-600 dark:text-zinc-400">{str(r.text)}</p>}
            </div>
          ))}
        </Section>
      )}
      {outputs.length > 0 && (
        <Section title="Outputs">
          {outputs.map((o, i) =>
            str(o.type) === 'image' && str(o.url) ? (
              <img key={i} src={str(o.url)!} alt="code interpreter output" className="max-w-full rounded" />
            ) : (
              <Code key={i} text={str(o.logs) ?? JSON.stringify(o, null, 2)} />
            ),
          )}
        </Section>
      )}
      {image && ctx.node.type === 'image_generation_call' && (
        <Section title="Image">
          <img
            src={`data:image/${str(raw.output_format) ?? 'png'};base64,${image}`}
            alt={str(raw.revised_prompt) ?? 'generated image'}
            className="max-w-full rounded"
          />
          {str(raw.revised_prompt) && <p className="mt-1 text-[12px] text-zinc-500">{str(raw.revised_prompt)}</p>}
        </Section>
      )}
    </>
  );
}

function Shell({ ctx }: { ctx: ItemContext }) {
  const raw = ctx.node.item.raw;
  const action = obj(raw.action);
  const op = obj(raw.operation);
  const commands = [...arr(action?.commands), ...arr(action?.command)].map((c) => str(c) ?? '').filter(Boolean);
  return (
    <>
      {commands.length > 0 && (
        <Section title="Commands">
          <Code text={commands.join('\n')} />
        </Section>
      )}
      {op && (
        <Section title={`${str(op.type) ?? 'patch'} ${str(op.path) ?? ''}`}>
          <Code text={str(op.diff) ?? JSON.stringify(op, null, 2)} />
        </Section>
      )}
      <PartnerLink ctx={ctx} label="Go to output" />
    </>
  );
}

function Opaque({ ctx, what }: { ctx: ItemContext; what: string }) {
  return (
    <Section title={ctx.node.type.replace(/_/g, ' ')}>
      <p className="text-[12.5px]">{ctx.node.label}</p>
      <p className="mt-1 text-[12px] text-zinc-500">{what}</p>
    </Section>
  );
}

export function ItemDetails({ ctx }: { ctx: ItemContext }) {
  const { node } = ctx;
  switch (node.kind) {
    case 'message':
      return <Message ctx={ctx} />;
    case 'reasoning':
      return <Reasoning ctx={ctx} />;
    case 'tool_call':
      return node.type.includes('shell') || node.type === 'apply_patch_call' ? (
        <>
          <Shell ctx={ctx} />
          <Call ctx={ctx} />
        </>
      ) : (
        <Call ctx={ctx} />
      );
    case 'mcp':
    case 'program':
    case 'agent_call':
    case 'approval_request':
      return node.type === 'mcp_list_tools' ? <Hosted ctx={ctx} /> : <Call ctx={ctx} />;
    case 'tool_output':
    case 'program_output':
    case 'agent_call_output':
    case 'approval_response':
      return <Output ctx={ctx} />;
    case 'hosted_tool':
      return <Hosted ctx={ctx} />;
    case 'compaction':
      return <Opaque ctx={ctx} what="The compacted context is encrypted by the API; only its size is known." />;
    case 'agent_message':
      return <Message ctx={ctx} />;
    default:
      return (
        <Opaque
          ctx={ctx}
          what={
            node.kind === 'generic'
              ? 'Loupe does not know this item type; it is kept and shown as sent.'
              : 'See the raw JSON.'
          }
        />
      );
  }
}
