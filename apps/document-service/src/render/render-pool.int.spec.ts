import type { InvoiceSnapshot } from '@inv/contracts';
import { domesticMixedRates } from '@inv/einvoice';
import { createRenderer, RenderFailed } from './render-pool';

jest.setTimeout(60_000);

const sample = () => domesticMixedRates() as unknown as InvoiceSnapshot;

describe('the render pool', () => {
  const pool = createRenderer(1);
  afterAll(() => pool.close());

  it('warms its worker up, then renders invoices and statements off the event loop', async () => {
    expect(await pool.warmUp()).toBeGreaterThan(0);
    const logo = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const attachment = { id: 1, filename: 'note.txt', contentType: 'text/plain', body: Buffer.from('hello') };
    const docs = await pool.invoice(sample(), 'ZUGFERD', 1, { logo, attachments: [attachment] });
    expect(docs.thread).not.toBe(0); // a worker thread, not the event loop's
    expect(Buffer.isBuffer(docs.pdf.body)).toBe(true);
    expect(docs.pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
    expect(docs.pdf.body.includes('factur-x.xml')).toBe(true);
    expect(docs.xml?.body.toString()).toContain('CrossIndustryInvoice');
    const invoice = sample();
    const statement = await pool.statement({
      language: 'en',
      company: invoice.seller,
      customer: { ...invoice.buyer, customerNumber: '10001' },
      from: '2026-01-01',
      to: '2026-11-30',
      openingBalance: '0.00',
      entries: [{ date: '2026-11-02', documentNumber: 'RE-2026-00001', type: 'invoice', debit: '119.00', balance: '119.00' }],
      closingBalance: '119.00',
    } as never);
    expect(statement.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('answers RenderFailed for data that cannot be rendered, and keeps working', async () => {
    await expect(pool.invoice(sample(), 'ZUGFERD', 999)).rejects.toThrow(RenderFailed);
    await expect(pool.invoice(sample(), 'ZUGFERD', 999)).rejects.toThrow(/unknown template id/);
    expect((await pool.invoice(sample(), 'PEPPOL', 1)).xml?.body.toString()).toContain('<Invoice');
  });

  it('stops a render that takes too long (the bus retries it: not RenderFailed) and goes on with a new worker', async () => {
    const impatient = createRenderer(1, { timeoutMs: 30 });
    try {
      await impatient.warmUp();
      const big = sample();
      big.lines = Array.from({ length: 400 }, (_, i) => ({ ...big.lines[0]!, id: String(i + 1) }));
      const err = await impatient.invoice(big, 'ZUGFERD', 1).catch((e: unknown) => e);
      expect(err).not.toBeInstanceOf(RenderFailed);
      expect((err as Error).name).toMatch(/Abort/);
      expect(await impatient.warmUp()).toBeGreaterThan(0); // a new worker took the stopped one's place
    } finally {
      await impatient.close();
    }
  });

  it('renders on the event loop with 0 workers', async () => {
    const inline = createRenderer(0);
    const docs = await inline.invoice(sample(), 'XRECHNUNG', 1);
    expect(docs.thread).toBe(0);
    expect(docs.pdf.body.includes('xrechnung.xml')).toBe(true);
    await expect(inline.invoice(sample(), 'PDF', 999)).rejects.toThrow(RenderFailed);
  });
});
