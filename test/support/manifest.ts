// Reads fixtures/MANIFEST.md, the collector's independent description of every file, so
// tests can check the loader against it rather than against itself. The MANIFEST's totals
// table covers a larger collection than the folder holds; only the per-file rows are used.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ManifestExchange {
  method: string;
  /** As the MANIFEST writes it: '/responses', '[azure]/chat/completions', '/responses/{id}'. */
  endpoint: string;
  status: number;
  /** 'JSON', 'SSE', 'chat-JSON', 'error-JSON', 'compaction-JSON', 'other', 'json:<keys>'. */
  kind: string;
  /** Event count of an SSE exchange ('42ev'). */
  events?: number;
}

export interface ManifestEntry {
  file: string;
  /** Section heading the row sits under (e.g. 'pydantic-ai'). */
  source: string;
  description: string;
  /** Flagged ⚠: placeholder ids, probably hand-written by the upstream maintainers. */
  handWritten: boolean;
  /** Parsed from '<n> exch: A / B / …' (VCR cassettes); absent for other descriptions. */
  exchanges?: ManifestExchange[];
}

const SECTION = /^### (\S+)/;
const ROW = /^\| `([^`]+)` \| `[^`]*` \| `[^`]*` \| (.*) \|\s*$/;
const EXCHANGE = /^([A-Z]+) (\S+) (\d{3}) (\S+)(?: (\d+)ev)?/;

function parseExchanges(description: string): ManifestExchange[] | undefined {
  const head = /^(\d+) exch: (.*)$/.exec(description);
  if (head === null) return undefined;
  const parts = (head[2] ?? '').split(' / ');
  const out: ManifestExchange[] = [];
  for (const part of parts) {
    const m = EXCHANGE.exec(part);
    if (m === null) throw new Error(`MANIFEST: unreadable exchange '${part}'`);
    const [, method = '', endpoint = '', status = '', kind = '', events] = m;
    out.push({ method, endpoint, status: Number(status), kind, ...(events ? { events: Number(events) } : {}) });
  }
  if (out.length !== Number(head[1])) throw new Error(`MANIFEST: '${description}' lists ${out.length} exchanges`);
  return out;
}

export function readManifest(fixturesRoot: string): Map<string, ManifestEntry> {
  const entries = new Map<string, ManifestEntry>();
  let source = '';
  for (const line of readFileSync(join(fixturesRoot, 'MANIFEST.md'), 'utf8').split('\n')) {
    const section = SECTION.exec(line);
    if (section !== null) source = section[1] ?? '';
    const row = ROW.exec(line);
    if (row === null) continue;
    const [, file = '', description = ''] = row;
    const exchanges = parseExchanges(description);
    entries.set(file, {
      file,
      source,
      description,
      handWritten: description.includes('⚠'),
      ...(exchanges ? { exchanges } : {}),
    });
  }
  return entries;
}
