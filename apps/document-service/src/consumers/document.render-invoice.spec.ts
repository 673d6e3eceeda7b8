import type { InvoiceSnapshot } from '@inv/contracts';
import type { ObjectStore } from '@inv/objects';
import type { AppBus } from '@inv/runtime';
import type { Logger } from '@inv/service-kit';
import type { Renderer } from '../render/render-pool';
import { handleRenderInvoice } from './document.render-invoice';

/** When a render announces that it started: only when it is slow (or when told to always). */
describe('handleRenderInvoice: the render-started signal', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  function setUp(renderMs: number, startedAfterMs: number, publishFails = false) {
    const published: Array<{ type: string; data: Record<string, unknown>; id?: string }> = [];
    const bus = {
      publishEvent: async (type: string, _companyId: string, data: Record<string, unknown>, opts?: { id?: string }) => {
        if (publishFails && type === 'document.render-started.v1') throw new Error('broker away');
        await sleep(5); // a confirm takes a moment: the report must still come after a signal on its way
        published.push({ type, data, id: opts?.id });
      },
    } as unknown as AppBus;
    const objects = { put: async () => undefined, get: async () => Buffer.from('') } as unknown as ObjectStore;
    const renderer = {
      invoice: async () => {
        await sleep(renderMs);
        return { pdf: { filename: 'R-1.pdf', body: Buffer.from('%PDF-') }, thread: 1 };
      },
    } as unknown as Renderer;
    const warnings: string[] = [];
    const logger = { warn: (_o: unknown, m: string) => warnings.push(m) } as unknown as Logger;
    const msg = {
      id: 'm1',
      type: 'document.render-invoice.v1',
      companyId: 'cmp_1',
      occurredAt: new Date().toISOString(),
      data: { jobId: 'j1', invoiceId: 7, format: 'PDF', templateId: 1, snapshot: {} as InvoiceSnapshot },
    } as unknown as Parameters<typeof handleRenderInvoice>[1];
    const run = () => handleRenderInvoice({ bus, objects, logger, renderer, maxAttempts: 3, startedAfterMs }, msg, 1);
    return { published, warnings, run };
  }

  it('a fast render reports without announcing its start; the report says when it started', async () => {
    const { published, run } = setUp(0, 1_000);
    const before = Date.now();
    await run();
    expect(published.map((p) => p.type)).toEqual(['document.rendered.v1']);
    const startedAt = Date.parse(published[0].data.startedAt as string);
    expect(startedAt).toBeGreaterThanOrEqual(before - 1);
    expect(startedAt).toBeLessThanOrEqual(Date.now());
    await sleep(1_100); // and no late signal after the report
    expect(published).toHaveLength(1);
  });

  it('a slow render announces its start once, before its report', async () => {
    const { published, run } = setUp(80, 20);
    await run();
    expect(published.map((p) => p.type)).toEqual(['document.render-started.v1', 'document.rendered.v1']);
    expect(published[0].id).toBe('render-started-j1');
    expect(published[0].data).toEqual({ jobId: 'j1', invoiceId: 7 });
  });

  it('0 announces every render at once', async () => {
    const { published, run } = setUp(0, 0);
    await run();
    expect(published.map((p) => p.type)).toEqual(['document.render-started.v1', 'document.rendered.v1']);
  });

  it('a start signal that cannot be published does not fail the render', async () => {
    const { published, warnings, run } = setUp(40, 10, true);
    await run();
    expect(published.map((p) => p.type)).toEqual(['document.rendered.v1']);
    expect(warnings).toContain('render-started could not be published');
  });
});
