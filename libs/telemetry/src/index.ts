// first: the library instrumentations patch mongodb and ioredis when they are required after this
import { disableLibraryInstrumentations } from './instrumentation';
import { trace } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  BatchSpanProcessor,
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';

export interface TelemetryOptions {
  serviceName: string;
  /** OTLP/HTTP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT); spans are exported there when set. */
  otlpEndpoint?: string;
  /** Collect spans in memory (tests read them through `memoryExporter`). */
  inMemory?: boolean;
}

export interface Telemetry {
  memoryExporter?: InMemorySpanExporter;
  shutdown(): Promise<void>;
}

let active: Telemetry | undefined;

/**
 * Starts the OpenTelemetry tracer provider for this process: W3C trace-context propagation (HTTP headers
 * and AMQP headers use the same global propagator) and the async-hooks context manager, so a trace
 * started at the gateway continues through every service the job touches. Idempotent per process.
 */
export function startTelemetry(opts: TelemetryOptions): Telemetry {
  if (active) return active;
  const processors: SpanProcessor[] = [];
  let memoryExporter: InMemorySpanExporter | undefined;
  if (opts.otlpEndpoint) {
    // Loaded only when spans are exported: the exporter and its OTLP transformer (which loads the metrics SDK)
    // hold ~3 MB of heap in every service (idle RSS).
    type Exporter = typeof import('@opentelemetry/exporter-trace-otlp-http');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as Exporter;
    processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url: `${opts.otlpEndpoint.replace(/\/$/, '')}/v1/traces` })));
  }
  if (opts.inMemory) {
    memoryExporter = new InMemorySpanExporter();
    processors.push(new SimpleSpanProcessor(memoryExporter));
  }
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': opts.serviceName }),
    spanProcessors: processors,
    // Nothing collects spans without an exporter: then none is recorded (recording them cost 3-5 % of a busy
    // service's CPU). Trace ids are still made and propagated, so logs and messages still correlate.
    // With an exporter the SDK's default applies, which OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG can
    // change (e.g. parentbased_traceidratio with 0.1 to keep one trace in ten).
    ...(processors.length === 0 ? { sampler: new AlwaysOffSampler() } : {}),
  });
  provider.register();
  if (processors.length === 0) disableLibraryInstrumentations();
  active = {
    memoryExporter,
    shutdown: async () => {
      await provider.shutdown();
      trace.disable();
      active = undefined;
    },
  };
  return active;
}

export { InMemorySpanExporter };
export * from './metrics';
