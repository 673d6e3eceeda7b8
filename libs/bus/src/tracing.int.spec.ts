import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createBus, type Bus, type HandlerContext } from './index';
import { AMQP_URL, deferred, memoryLogger, registry, testPrefix, waitFor } from '../test/support';

jest.setTimeout(30000);

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager().enable();
const prefix = testPrefix();
let invoice: Bus<typeof registry>;
let document: Bus<typeof registry>;
const seen: Array<{ step: string; traceId?: string; ctx: HandlerContext }> = [];
const done = deferred();
let serverTrace: string | undefined;

beforeAll(async () => {
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  invoice = createBus(registry, { url: AMQP_URL, prefix, service: 'invoice-service', logger: memoryLogger() });
  document = createBus(registry, { url: AMQP_URL, prefix, service: 'document-service', logger: memoryLogger() });
  document.onCommand('document.render.v1', async (msg, ctx) => {
    seen.push({ step: 'render', traceId: trace.getActiveSpan()?.spanContext().traceId, ctx });
    // Published from inside a handler: same trace, same correlation id, without passing either by hand.
    await document.publishEvent('invoice.finalized.v1', msg.companyId, { invoiceId: msg.data.invoiceId, total: '1.00' });
  });
  invoice.onEvent('after-render', ['invoice.finalized.v1'], async (_msg, ctx) => {
    seen.push({ step: 'finalized', traceId: trace.getActiveSpan()?.spanContext().traceId, ctx });
    done.resolve();
  });
  document.serveRpc('quota.reserve.v1', async () => {
    serverTrace = trace.getActiveSpan()?.spanContext().traceId;
    return { used: 1, limit: 2 };
  });
  await Promise.all([invoice.start(), document.start()]);
});

afterAll(async () => {
  await Promise.all([invoice.stop(), document.stop()]);
  await invoice.deleteAll();
  await document.deleteAll();
  trace.disable();
  context.disable();
  propagation.disable();
});

describe('trace context over AMQP', () => {
  it('makes one flow one trace: handler spans are children of the publishing spans, correlation id carried along', async () => {
    const tracer = trace.getTracer('test');
    const root = tracer.startSpan('POST /invoice/1/job');
    const sent = await context.with(trace.setSpan(context.active(), root), () =>
      invoice.sendCommand('document.render.v1', 'c1', { invoiceId: 1 }),
    );
    await done.promise;
    root.end();

    const traceId = root.spanContext().traceId;
    expect(seen.map((s) => s.step)).toEqual(['render', 'finalized']);
    expect(seen.map((s) => s.traceId)).toEqual([traceId, traceId]);
    expect(seen.map((s) => s.ctx.correlationId)).toEqual([sent.id, sent.id]);

    // The command's CONSUMER span ends only after its handler returned, which may be after `done`.
    const spans = await waitFor(
      () => {
        const found = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId && /^(publish|process) /.test(s.name));
        return found.length >= 4 ? found : undefined;
      },
      5000,
      'four bus spans',
    );
    const byName = (name: string) => spans.find((s) => s.name === name)!;
    const publishCmd = byName('publish document.render.v1');
    const processCmd = byName('process document.render.v1');
    const publishEvt = byName('publish invoice.finalized.v1');
    const processEvt = byName('process invoice.finalized.v1');
    expect([publishCmd.kind, processCmd.kind, publishEvt.kind, processEvt.kind]).toEqual([
      SpanKind.PRODUCER,
      SpanKind.CONSUMER,
      SpanKind.PRODUCER,
      SpanKind.CONSUMER,
    ]);
    expect(publishCmd.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    expect(processCmd.parentSpanContext?.spanId).toBe(publishCmd.spanContext().spanId);
    expect(publishEvt.parentSpanContext?.spanId).toBe(processCmd.spanContext().spanId);
    expect(processEvt.parentSpanContext?.spanId).toBe(publishEvt.spanContext().spanId);
    expect(processCmd.instrumentationScope.name).toBe('bus');
  });

  it('traces RPC as CLIENT and SERVER spans of the caller trace', async () => {
    const tracer = trace.getTracer('test');
    const root = tracer.startSpan('caller');
    const answer = await context.with(trace.setSpan(context.active(), root), () =>
      invoice.callRpc('quota.reserve.v1', 'c1', { month: '2026-11' }),
    );
    root.end();
    expect(answer).toEqual({ used: 1, limit: 2 });
    expect(serverTrace).toBe(root.spanContext().traceId);
    const kinds = exporter
      .getFinishedSpans()
      .filter((s) => s.spanContext().traceId === root.spanContext().traceId && s.name.endsWith('quota.reserve.v1'))
      .map((s) => s.kind);
    expect(kinds).toEqual(expect.arrayContaining([SpanKind.CLIENT, SpanKind.SERVER]));
  });
});
