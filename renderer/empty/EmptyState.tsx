// What a newcomer sees before any traffic: the proxy URL with a copy button and snippets
// for Node, Python, curl and OPENAI_BASE_URL. Runs appear here live as soon as a client calls.
import { useState } from 'react';
import { CopyButton } from '../lib/CopyButton.js';
import { useAppStore } from '../state/app-store.js';
import { DemoButton } from './DemoButton.js';
import { labelledUrl, snippets } from './snippets.js';

export function EmptyState() {
  const info = useAppStore((s) => s.info);
  const proxyUrl = info?.proxyUrl ?? null;
  const [tab, setTab] = useState('env');
  if (!info) return <div className="p-8 text-sm text-zinc-500">Connecting to Loupe…</div>;
  if (!proxyUrl) {
    return (
      <div className="mx-auto max-w-xl p-10 text-sm text-zinc-600 dark:text-zinc-300" data-testid="empty-state">
        <h2 className="mb-2 text-lg font-semibold">This recording has no runs</h2>
        <p>{info.recording.path} holds no recorded responses.</p>
      </div>
    );
  }
  const all = snippets(proxyUrl);
  const current = all.find((s) => s.id === tab) ?? all[0]!;
  return (
    <div className="h-full overflow-y-auto" data-testid="empty-state">
      <div className="mx-auto max-w-2xl px-8 py-12">
        <h2 className="text-xl font-semibold">Point your agent at Loupe</h2>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Loupe forwards every request to the real API untouched and records it. Use this base URL instead of the API's:
        </p>
        <div className="mt-4 flex items-center gap-2 rounded-lg border border-blue-200 bg-blue-50 px-3 py-2.5 dark:border-blue-900 dark:bg-blue-950/40">
          <code
            className="flex-1 truncate font-mono text-[15px] text-blue-900 dark:text-blue-200"
            data-testid="proxy-url"
            title={proxyUrl}
          >
            {proxyUrl}
          </code>
          <CopyButton text={proxyUrl} label="Copy URL" />
        </div>
        <div className="mt-6 overflow-hidden rounded-lg border border-zinc-200 dark:border-zinc-800">
          <div
            className="flex border-b border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-900"
            role="tablist"
          >
            {all.map((s) => (
              <button
                key={s.id}
                type="button"
                role="tab"
                aria-selected={s.id === current.id}
                data-snippet={s.id}
                onClick={() => setTab(s.id)}
                className={`px-3 py-1.5 text-[12.5px] ${
                  s.id === current.id
                    ? 'border-b-2 border-blue-500 font-medium text-zinc-900 dark:text-zinc-100'
                    : 'text-zinc-500 hover:text-zinc-800 dark:hover:text-zinc-200'
                }`}
              >
                {s.title}
              </button>
            ))}
          </div>
          <div className="relative">
            <pre
              className="overflow-x-auto bg-white p-4 font-mono text-[12.5px] leading-relaxed dark:bg-zinc-950"
              data-testid="snippet"
            >
              {current.code}
            </pre>
            <CopyButton text={current.code} className="absolute right-2 top-2" />
          </div>
        </div>
        <DemoButton />
        <ul className="mt-6 space-y-1.5 text-[13px] text-zinc-600 dark:text-zinc-400">
          <li>
            Name a run with the URL{' '}
            <code className="rounded bg-zinc-100 px-1 dark:bg-zinc-800">{labelledUrl(proxyUrl, 'my-agent')}</code> or
            the <code className="rounded bg-zinc-100 px-1 dark:bg-zinc-800">x-loupe-session</code> header.
          </li>
          <li>Your API key passes through to the API; Loupe stores only a redacted hint of it.</li>
          <li>Runs show up on the left as they stream. Recording to {info.recording.path}.</li>
        </ul>
      </div>
    </div>
  );
}
