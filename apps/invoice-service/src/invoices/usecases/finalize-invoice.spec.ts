import { FINALIZE_TASK } from '@inv/contracts';
import { startFinalizeJob } from './finalize-invoice';
import { billingSnapshot, COMPANY, fakeDeps, NOW, position, sellerProfile, storedDraft } from '../../testing/fake-deps';

/** The error's field errors as "path: rule: message" (what a client reads in `errors`). */
const fieldErrors = (err: unknown) =>
  ((err as { options: { errors?: { path: string; rule: string; message: string }[] } }).options.errors ?? []).map(
    (e) => `${e.path}: ${e.rule}: ${e.message}`,
  );

describe("startFinalizeJob's checks", () => {
  it('looks for attachments unless the draft never had an upload (attachmentsUploaded false)', async () => {
    const f = fakeDeps();
    const asked: number[] = [];
    const attachment = { id: 5, key: 'k', filename: 'terms.pdf', contentType: 'application/pdf', size: 10 };
    (f.deps.attachments as any).ofInvoice = async (_c: string, id: number) => (asked.push(id), [attachment]);
    storedDraft(f, 1, { positions: [position(10)], attachmentsUploaded: false });
    storedDraft(f, 2, { positions: [position(11)], attachmentsUploaded: true });
    storedDraft(f, 3, { positions: [position(12)] }); // made before the field, or copied
    for (const id of [1, 2, 3]) await startFinalizeJob(f.deps, COMPANY, id, false);
    expect(asked).toEqual([2, 3]);
    const renders = f.messages.filter((m) => m.type === 'document.render-invoice.v1').map((m) => m.data as { attachments?: unknown[] });
    expect(renders.map((r) => r.attachments?.length ?? 0)).toEqual([0, 1, 1]);
  });

  it('stores the job, freezes the invoice and writes the render command in one commit', async () => {
    const f = fakeDeps();
    storedDraft(f, 1, { positions: [position(10)] });
    const jobId = await startFinalizeJob(f.deps, COMPANY, 1, false);
    expect(f.jobs.get(jobId)).toMatchObject({
      companyId: COMPANY,
      invoiceId: 1,
      task: FINALIZE_TASK,
      status: 'queued',
      reservationId: `${jobId}@2026-11`,
    });
    expect(f.invoices.get(1)).toMatchObject({
      status: 'DRAFT',
      finalizingJobId: jobId,
      invoiceDate: '2026-11-20',
      customerName: 'Buyer AG',
      grossCents: 23800,
    });
    expect(f.invoices.get(1)!.snapshot).toMatchObject({
      issueDate: '2026-11-20',
      seller: { name: 'Seller GmbH' },
      buyer: { name: 'Buyer AG' },
      lines: [{ id: '10', vat: { category: 'S', rate: '19' } }],
    });
    expect(f.messages).toEqual([
      expect.objectContaining({
        kind: 'command',
        type: 'document.render-invoice.v1',
        id: `render-${jobId}`,
        data: expect.objectContaining({ jobId, invoiceId: 1, format: 'ZUGFERD', templateId: 1 }),
      }),
    ]);
    expect(f.asked.find((q) => q.name === 'quota.reserve.v1')?.request).toEqual({
      reservationId: `${jobId}@2026-11`,
      at: NOW.toISOString(),
    });
  });

  it('refuses a company without a profile with the SELLER_PROFILE rule (the RPC answers found: false)', async () => {
    const f = fakeDeps({ 'account.seller-profile.v1': () => ({ found: false }) });
    storedDraft(f, 1, { positions: [position(10)] });
    const err = await startFinalizeJob(f.deps, COMPANY, 1, false).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'unprocessable', options: { code: 'INVOICE_NOT_VALID' } });
    expect(fieldErrors(err)).toContain('company: SELLER_PROFILE: the company profile is missing');
    expect(f.jobs.size).toBe(0);
    expect(f.asked.map((q) => q.name)).not.toContain('quota.reserve.v1');
  });

  it('names what the seller profile lacks, and a missing bank account', async () => {
    const f = fakeDeps({ 'account.seller-profile.v1': () => ({ ...sellerProfile, missing: ['vat_id'], payment: undefined }) });
    storedDraft(f, 1, { positions: [position(10)] });
    const err = await startFinalizeJob(f.deps, COMPANY, 1, false).catch((e: unknown) => e);
    expect(fieldErrors(err)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^company\.vat_id: SELLER_PROFILE: /),
        expect.stringMatching(/^company\.bank_accounts: BANK_ACCOUNT_REQUIRED: /),
      ]),
    );
  });

  it('refuses an unknown customer, a customer without billing address and an invoice without positions', async () => {
    const unknown = fakeDeps({
      'customer.billing-snapshot.v1': () => ({ found: false, hasBillingAddress: false, vatStatus: 'not_checked' }),
    });
    storedDraft(unknown, 1);
    expect(fieldErrors(await startFinalizeJob(unknown.deps, COMPANY, 1, false).catch((e: unknown) => e))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^customer_id: CUSTOMER_EXISTS: /),
        expect.stringMatching(/^positions: AT_LEAST_ONE_POSITION: /),
      ]),
    );
    const noAddress = fakeDeps({ 'customer.billing-snapshot.v1': () => ({ ...billingSnapshot, hasBillingAddress: false }) });
    storedDraft(noAddress, 1, { positions: [position(10)] });
    expect(fieldErrors(await startFinalizeJob(noAddress.deps, COMPANY, 1, false).catch((e: unknown) => e))).toEqual([
      expect.stringMatching(/^customer\.addresses: BILLING_ADDRESS_REQUIRED: /),
    ]);
  });

  it("passes on the format's requirements (libs/einvoice's requirementsFor on the snapshot) as validation errors", async () => {
    const f = fakeDeps();
    storedDraft(f, 1, { format: 'XRECHNUNG', positions: [position(10)] });
    expect(fieldErrors(await startFinalizeJob(f.deps, COMPANY, 1, false).catch((e: unknown) => e))).toEqual([
      'buyerReference: BR-DE-15: XRechnung needs the buyer reference (Leitweg-ID for public buyers).',
      'buyer.electronicAddress: PEPPOL-EN16931-R010: XRechnung needs the buyer electronic address.',
    ]);
  });

  it('asks for vat_override_confirmed when the customer VAT ID is not confirmed (422), and proceeds with it', async () => {
    const f = fakeDeps({ 'customer.billing-snapshot.v1': () => ({ ...billingSnapshot, vatStatus: 'unavailable' }) });
    storedDraft(f, 1, { positions: [position(10)] });
    await expect(startFinalizeJob(f.deps, COMPANY, 1, false)).rejects.toMatchObject({
      kind: 'unprocessable',
      options: {
        code: 'VAT_OVERRIDE_REQUIRED',
        errors: [expect.objectContaining({ path: 'customer.vat_id', field: 'customer.vat_id', rule: 'VAT_OVERRIDE_REQUIRED' })],
        extra: { vat_check: { status: 'unavailable' }, vat_override_required: true },
      },
    });
    expect(f.jobs.size).toBe(0);
    await expect(startFinalizeJob(f.deps, COMPANY, 1, true)).resolves.toEqual(expect.any(String));
  });

  it('answers 402 with the usage when the monthly quota is used up, storing nothing', async () => {
    const f = fakeDeps({ 'quota.reserve.v1': () => ({ granted: false, used: 3, limit: 3, reset_date: '2026-12-01', plan: 'free' }) });
    storedDraft(f, 1, { positions: [position(10)] });
    await expect(startFinalizeJob(f.deps, COMPANY, 1, false)).rejects.toMatchObject({
      kind: 'limit_reached',
      options: {
        code: 'INVOICE_LIMIT_REACHED',
        extra: { usage: { used: 3, limit: 3, reset_date: '2026-12-01' }, used: 3, limit: 3, reset_date: '2026-12-01' },
      },
    });
    expect(f.jobs.size).toBe(0);
    expect(f.invoices.get(1)!.finalizingJobId).toBeUndefined();
  });

  it('refuses an invoice already being finalized or no longer a draft (409)', async () => {
    const f = fakeDeps();
    storedDraft(f, 1, { finalizingJobId: 'job-0', positions: [position(10)] });
    storedDraft(f, 2, { status: 'OPEN', positions: [position(10)] });
    await expect(startFinalizeJob(f.deps, COMPANY, 1, false)).rejects.toMatchObject({
      kind: 'conflict',
      options: { code: 'JOB_IN_PROGRESS' },
    });
    await expect(startFinalizeJob(f.deps, COMPANY, 2, false)).rejects.toMatchObject({
      kind: 'conflict',
      options: { code: 'INVOICE_NOT_DRAFT' },
    });
  });

  it('an invoice changed during finalization is a conflict, and the quota reservation is released', async () => {
    const f = fakeDeps();
    storedDraft(f, 1, { positions: [position(10)] });
    f.interfere();
    await expect(startFinalizeJob(f.deps, COMPANY, 1, false)).rejects.toMatchObject({
      kind: 'conflict',
      options: { code: 'CONCURRENT_MODIFICATION' },
    });
    expect(f.jobs.size).toBe(0);
    expect(f.messages).toEqual([
      expect.objectContaining({
        type: 'invoice.finalize-failed.v1',
        data: expect.objectContaining({ invoiceId: 1, reason: 'invoice changed during finalization' }),
      }),
    ]);
  });
});
