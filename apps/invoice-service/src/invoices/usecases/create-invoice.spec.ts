import { InvoiceCreate } from '@inv/contracts';
import { AppError } from '@inv/service-kit';
import { createInvoice } from './create-invoice';
import { billingSnapshot, COMPANY, fakeDeps, NOW } from '../../testing/fake-deps';

const input = (fields: Record<string, unknown>) => InvoiceCreate.parse({ customer_id: 1, ...fields });

describe('createInvoice', () => {
  it('stores a draft numbered from the sequence, with the buyer as the customer is now', async () => {
    const f = fakeDeps({
      'customer.billing-snapshot.v1': () => ({ ...billingSnapshot, defaultTemplateId: 2, buyerReference: '04011000-12345-67' }),
    });
    const id = await createInvoice(f.deps, COMPANY, input({ note: 'Danke' }));
    expect(f.invoices.get(id)).toMatchObject({
      id,
      companyId: COMPANY,
      customerId: 1,
      customerName: 'Buyer AG',
      status: 'DRAFT',
      typeCode: '380',
      number: 'RE-2026-00001',
      format: 'ZUGFERD',
      templateId: 2,
      buyerReference: '04011000-12345-67',
      note: 'Danke',
      positions: [],
      grossCents: 0,
      createdAt: NOW,
    });
    // numbers are consecutive, one per draft
    const second = await createInvoice(f.deps, COMPANY, input({}));
    expect(f.invoices.get(second)?.number).toBe('RE-2026-00002');
  });

  it('keeps an explicit invoice_number and refuses one the company used (409)', async () => {
    const f = fakeDeps();
    const id = await createInvoice(f.deps, COMPANY, input({ invoice_number: 'A-1' }));
    expect(f.invoices.get(id)?.number).toBe('A-1');
    await expect(createInvoice(f.deps, COMPANY, input({ invoice_number: 'A-1' }))).rejects.toMatchObject({
      kind: 'conflict',
      options: { code: 'DUPLICATE_INVOICE_NUMBER' },
    });
    expect(f.invoices.size).toBe(1);
  });

  it('refuses an unknown customer and an unknown template (400 naming the field), storing nothing', async () => {
    const f = fakeDeps();
    const unknownCustomer = await createInvoice(f.deps, COMPANY, input({ customer_id: 99 })).catch((e: unknown) => e);
    expect(unknownCustomer).toBeInstanceOf(AppError);
    expect(unknownCustomer).toMatchObject({ kind: 'invalid_data', options: { errors: [{ path: 'customer_id' }] } });
    await expect(createInvoice(f.deps, COMPANY, input({ ftl_template_id: 7 }))).rejects.toMatchObject({
      kind: 'invalid_data',
      options: { errors: [{ path: 'ftl_template_id' }] },
    });
    expect(f.invoices.size).toBe(0);
  });

  it('stores a string meta as it is and an object meta as JSON text', async () => {
    const f = fakeDeps();
    const text = await createInvoice(f.deps, COMPANY, input({ meta: 'order 42' }));
    const object = await createInvoice(f.deps, COMPANY, input({ meta: { order: 42 } }));
    expect(f.invoices.get(text)).toMatchObject({ meta: 'order 42', metaJson: null });
    expect(f.invoices.get(object)).toMatchObject({ meta: null, metaJson: '{"order":42}' });
  });
});
