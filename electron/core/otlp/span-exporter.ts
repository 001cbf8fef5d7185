// Sends finished spans to an OTLP/HTTP endpoint through the official exporter (protobuf,
// or JSON on request). Headers come from OTEL_EXPORTER_OTLP_HEADERS, as the exporter reads
// them. The exporter retries a failed batch a bounded number of times; what is still
// waiting beyond MAX_PENDING spans is dropped and counted, so a dead collector costs a
// bounded queue, never the proxy's time (this runs in a thread of its own).
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import type { GenAiSpan } from '../../../shared/export/genai-spans.js';
import { readableSpan } from './readable-span.js';

export const MAX_PENDING = 10_000;
const BATCH = 512;

export interface SpanSinkOptions {
  url: string;
  json: boolean;
  version: string;
  log: (line: string) => void;
}

export class SpanSink {
  private readonly exporter: SpanExporter;
  private readonly resource;
  private pending: GenAiSpan[] = [];
  private sending: Promise<void> | null = null;
  private dropped = 0;
  private failing = false;

  constructor(private readonly options: SpanSinkOptions) {
    const Exporter = options.json ? JsonExporter : ProtoExporter;
    this.exporter = new Exporter({ url: options.url, timeoutMillis: 10_000 });
    this.resource = resourceFromAttributes({ 'service.name': 'loupe', 'service.version': options.version });
  }

  push(spans: GenAiSpan[]): void {
    this.pending.push(...spans);
    const over = this.pending.length - MAX_PENDING;
    if (over > 0) {
      this.pending.splice(0, over);
      this.dropped += over;
    }
    this.sending ??= this.drain().finally(() => (this.sending = null));
  }

  /** Resolves once everything pushed so far was sent or given up on. */
  async flush(): Promise<void> {
    while (this.sending) await this.sending;
  }

  async close(): Promise<void> {
    await this.flush();
    if (this.dropped > 0)
      this.options.log(
        `loupe: OTLP push dropped ${this.dropped} span(s) the collector at ${this.options.url} did not take in time`,
      );
    await this.exporter.shutdown();
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, BATCH);
      const code = await new Promise<ExportResultCode>((resolve) =>
        this.exporter.export(
          batch.map((s) => readableSpan(s, this.resource, this.options.version)),
          (result) => resolve(result.code),
        ),
      );
      if (code === ExportResultCode.SUCCESS) {
        if (this.failing) this.options.log(`loupe: OTLP push to ${this.options.url} works again`);
        this.failing = false;
      } else {
        this.dropped += batch.length;
        if (!this.failing)
          this.options.log(
            `loupe: OTLP push to ${this.options.url} failed; spans are dropped until it answers (traffic still flows)`,
          );
        this.failing = true;
      }
    }
  }
}
