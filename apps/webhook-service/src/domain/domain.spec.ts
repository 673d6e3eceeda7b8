import { addressAllowed, checkUrlForm } from './address-policy';
import { WEBHOOK_EVENT_TYPES } from '@inv/contracts';
import { mapBusEvent, payloadData, SOURCE_EVENTS, subscribes, type SourceEvent } from './event-mapping';
import { nextAttemptAt, RETRY_SCHEDULE_MS } from './retry-schedule';
import { newSigningSecret, secretBox, secretKeysOf } from './secrets';

describe('address policy', () => {
  it.each([
    ['10.0.0.1', false],
    ['172.31.255.255', false],
    ['192.168.0.10', false],
    ['127.0.0.1', false],
    ['169.254.169.254', false],
    ['100.64.1.1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['::1', false],
    ['fd00:ec2::254', false],
    ['fc00::1', false],
    ['fe80::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:10.1.1.1', false],
    ['::', false],
    // IPv4-compatible (::/96) and other forms that carry an IPv4 address: judged by it
    ['::a00:1', false],
    ['::7f00:1', false],
    ['::127.0.0.1', false],
    ['::a9fe:a9fe', false],
    ['::c0a8:101', false],
    ['::2', false],
    ['0:0:0:0:0:0:a00:1', false],
    ['::ffff:a00:1', false],
    ['::ffff:a9fe:a9fe', false],
    ['0:0:0:0:0:ffff:7f00:1', false],
    ['64:ff9b::a00:1', false],
    ['64:ff9b:1::a00:1', false],
    ['2002:a00:1::', false],
    ['::ffff:0:a00:1', false],
    ['::5db8:d822', true],
    ['93.184.216.34', true],
    ['2606:2800:220:1:248:1893:25c8:1946', true],
    ['::ffff:93.184.216.34', true],
    ['not-an-ip', false],
  ])('%s allowed: %s', (ip, allowed) => expect(addressAllowed(ip, false)).toBe(allowed));

  it('admits loopback only when allowed', () => {
    expect(addressAllowed('127.0.0.1', true)).toBe(true);
    expect(addressAllowed('::1', true)).toBe(true);
    expect(addressAllowed('10.0.0.1', true)).toBe(false);
    // the IPv4-compatible form of 127.0.0.1 is not loopback (it does not reach it): refused either way
    expect(addressAllowed('::7f00:1', true)).toBe(false);
    expect(addressAllowed('::a00:1', true)).toBe(false);
  });

  it('wants https in production and no credentials', () => {
    expect(checkUrlForm('http://example.com/', true)).toMatchObject({ ok: false });
    expect(checkUrlForm('https://example.com/', true)).toMatchObject({ ok: true });
    expect(checkUrlForm('http://example.com/', false)).toMatchObject({ ok: true });
    expect(checkUrlForm('https://user:pw@example.com/', false)).toMatchObject({ ok: false });
    expect(checkUrlForm('file:///etc/passwd', false)).toMatchObject({ ok: false });
    expect(checkUrlForm('/relative', false)).toMatchObject({ ok: false });
  });
});

describe('retry schedule', () => {
  it('runs about 3 days, each delay within ±20 %', () => {
    const total = RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0);
    expect(total / 3600_000).toBeGreaterThan(72);
    expect(total / 3600_000).toBeLessThan(80);
    const now = new Date('2026-11-27T00:00:00Z');
    expect(nextAttemptAt(1, now, RETRY_SCHEDULE_MS, 0)!.getTime() - now.getTime()).toBe(4000);
    expect(nextAttemptAt(1, now, RETRY_SCHEDULE_MS, 0.9999999)!.getTime() - now.getTime()).toBe(6000);
    expect(nextAttemptAt(2, now, RETRY_SCHEDULE_MS, 0.5)!.getTime() - now.getTime()).toBe(300_000);
    expect(nextAttemptAt(RETRY_SCHEDULE_MS.length + 1, now)).toBeUndefined();
  });
});

describe('event mapping', () => {
  it('maps the bus events an integrator needs and nothing else', () => {
    expect(mapBusEvent('invoice.changed.v1', { invoiceId: 4, action: 'created', fields: [] })).toMatchObject({ type: 'invoice.created' });
    expect(mapBusEvent('invoice.changed.v1', { invoiceId: 4, action: 'updated', fields: [] })).toBeUndefined();
    expect(mapBusEvent('invoice.changed.v1', { invoiceId: 4, action: 'cancelled', fields: ['status'] })).toEqual({
      type: 'invoice.status_changed',
      resource: { kind: 'invoice', id: 4 },
      extra: { status: 'CANCELLED' },
    });
    expect(mapBusEvent('invoice.finalized.v1', { invoiceId: 4, typeCode: '381' })).toMatchObject({ type: 'credit_note.finalized' });
    expect(mapBusEvent('invoice.finalized.v1', { invoiceId: 4, typeCode: '380' })).toMatchObject({ type: 'invoice.finalized' });
    expect(mapBusEvent('mail.sent.v1', { emailId: 'e1', subjectRef: 'member:m1' })).toBeUndefined();
    expect(mapBusEvent('mail.failed.v1', { emailId: 'e1', subjectRef: 'invoice:9', reason: 'x' })).toMatchObject({
      type: 'email.failed',
      resource: { kind: 'email', id: 'e1', invoiceId: 9 },
    });
    expect(mapBusEvent('vat.checked.v1', { vatId: 'DE1' })).toBeUndefined();
    expect(mapBusEvent('vat.checked.v1', { vatId: 'DE1', customerId: 3 })).toMatchObject({ type: 'customer.vat_checked' });
    expect(mapBusEvent('quota.limit-reached.v1', { month: '2026-11' })).toMatchObject({ type: 'quota.limit_reached' });
  });

  it('maps payments, reminders, overdue invoices, bank statements and received e-invoices', () => {
    const base = { invoiceId: 42, customerId: 3, number: 'RE-2026-0042' };
    expect(
      mapBusEvent('invoice.payment-recorded.v1', {
        ...base,
        paymentId: 7,
        amount: '116.62',
        discount: '2.38',
        date: '2026-11-21',
        method: 'BANK_TRANSFER',
        source: 'manual',
        openAmount: '0.00',
        paidInFull: true,
      }),
    ).toEqual({
      type: 'invoice.payment_recorded',
      resource: { kind: 'invoice', id: 42 },
      extra: {
        payment: {
          id: 7,
          amount: 116.62,
          discount: 2.38,
          date: '2026-11-21',
          method: 'BANK_TRANSFER',
          reference: null,
          source: 'manual',
        },
        open_amount: 0,
        paid_in_full: true,
      },
    });
    expect(
      mapBusEvent('invoice.payment-reversed.v1', {
        ...base,
        paymentId: 7,
        amount: '116.62',
        date: '2026-11-21',
        reversedAt: '2026-11-22T08:00:00.000Z',
        openAmount: '116.62',
      }),
    ).toEqual({
      type: 'invoice.payment_reversed',
      resource: { kind: 'invoice', id: 42 },
      extra: {
        payment: { id: 7, amount: 116.62, discount: 0, date: '2026-11-21', reversed_at: '2026-11-22T08:00:00.000Z' },
        open_amount: 116.62,
      },
    });
    const overdue = mapBusEvent('invoice.overdue.v1', { ...base, dueDate: '2026-11-01', openAmount: '119.00' })!;
    expect(overdue).toEqual({ type: 'invoice.status_changed', resource: { kind: 'invoice', id: 42 }, extra: { status: 'OVERDUE' } });
    expect(payloadData(overdue, { id: 42 })).toEqual({ invoice: { id: 42 }, status: 'OVERDUE' });
    expect(
      mapBusEvent('invoice.reminder-issued.v1', {
        ...base,
        reminderId: 3,
        level: 2,
        date: '2026-12-05',
        fee: '5.00',
        interest: '0.41',
        openAmount: '124.41',
        emailed: false,
        flatFee: '40.00',
      }),
    ).toEqual({
      type: 'invoice.reminder_issued',
      resource: { kind: 'invoice', id: 42 },
      extra: {
        reminder: {
          id: 3,
          level: 2,
          date: '2026-12-05',
          fee: 5,
          flat_fee: 40,
          interest: 0.41,
          open_amount: 124.41,
          emailed: false,
        },
      },
    });
    const statement = mapBusEvent('bank-statement.imported.v1', { statementId: 12, credits: 14, proposals: 11 })!;
    expect(statement).toMatchObject({ type: 'bank_statement.imported', resource: { kind: 'bank_statement', id: 12 } });
    // the statement cannot be read (yet): its figures from the event travel anyway
    expect(payloadData(statement, null)).toEqual({ bank_statement: null, statement_id: 12, credits: 14, proposals: 11 });
    expect(payloadData(statement, { id: 12, credits: 14 })).toMatchObject({ bank_statement: { id: 12 }, proposals: 11 });
    const inbound = mapBusEvent('inbound.received.v1', { inboundId: 31, format: 'xrechnung-ubl', valid: true })!;
    expect(inbound).toEqual({ type: 'inbound_invoice.received', resource: { kind: 'inbound', id: 31 }, extra: {} });
    expect(payloadData(inbound, { id: 31, valid: true })).toEqual({ inbound_invoice: { id: 31, valid: true } });
    expect(mapBusEvent('inbound.deleted.v1', { inboundId: 31 })).toBeUndefined();
    const run = mapBusEvent('recurring-invoice.run-finished.v1', {
      recurringId: 4,
      periodStart: '2026-12-01',
      periodEnd: '2026-12-31',
      invoiceId: 118,
      outcome: 'quota_exceeded',
      pausedReason: 'quota_exceeded',
      error: '402 INVOICE_LIMIT_REACHED',
    })!;
    expect(run).toMatchObject({ type: 'recurring_invoice.run_finished', resource: { kind: 'recurring', id: 4 } });
    expect(payloadData(run, { id: 4, status: 'paused' })).toEqual({
      recurring_invoice: { id: 4, status: 'paused' },
      run: {
        period_start: '2026-12-01',
        period_end: '2026-12-31',
        invoice_id: 118,
        outcome: 'quota_exceeded',
        paused_reason: 'quota_exceeded',
        error: '402 INVOICE_LIMIT_REACHED',
      },
    });
    const done = mapBusEvent('recurring-invoice.run-finished.v1', {
      recurringId: 4,
      periodStart: 'a',
      periodEnd: 'b',
      invoiceId: 9,
      outcome: 'sent',
    })!;
    expect(payloadData(done, null)).toMatchObject({ recurring_invoice: null, run: { outcome: 'sent', paused_reason: null, error: null } });
    expect(mapBusEvent('export.payments-exported.v1', { paymentIds: [7], jobId: 'j' })).toBeUndefined();
  });

  it('lists a webhook type for every source event, each one a documented payload', () => {
    const samples: Record<SourceEvent, Record<string, unknown>> = {
      'invoice.changed.v1': { invoiceId: 1, action: 'created' },
      'invoice.finalized.v1': { invoiceId: 1 },
      'invoice.finalize-failed.v1': { invoiceId: 1, reason: 'x' },
      'invoice.status-changed.v1': { invoiceId: 1, status: 'PAID' },
      'mail.sent.v1': { emailId: 'e', subjectRef: 'invoice:1' },
      'mail.failed.v1': { emailId: 'e', subjectRef: 'invoice:1', reason: 'x' },
      'vat.checked.v1': { customerId: 1 },
      'export.finished.v1': { jobId: 'j' },
      'export.failed.v1': { jobId: 'j' },
      'quota.limit-reached.v1': { month: '2026-11' },
      'invoice.payment-recorded.v1': { invoiceId: 1, paymentId: 1, amount: '1.00', openAmount: '0.00' },
      'invoice.payment-reversed.v1': { invoiceId: 1, paymentId: 1, amount: '1.00', openAmount: '1.00' },
      'invoice.overdue.v1': { invoiceId: 1 },
      'invoice.reminder-issued.v1': { invoiceId: 1, reminderId: 1, fee: '0.00', interest: '0.00', openAmount: '1.00' },
      'bank-statement.imported.v1': { statementId: 1 },
      'inbound.received.v1': { inboundId: 1 },
      'recurring-invoice.run-finished.v1': { recurringId: 1, outcome: 'sent' },
    };
    for (const type of SOURCE_EVENTS) expect(WEBHOOK_EVENT_TYPES).toContain(mapBusEvent(type, samples[type])!.type);
  });

  it('sends ping only on request, * matches every other type', () => {
    expect(subscribes(['*'], 'invoice.created')).toBe(true);
    expect(subscribes(['*'], 'ping')).toBe(false);
    expect(subscribes(['email.sent'], 'invoice.created')).toBe(false);
  });

  it('says whether the XML is available from the invoice format', () => {
    const mapped = mapBusEvent('invoice.finalized.v1', { invoiceId: 4, typeCode: '380' })!;
    expect(payloadData(mapped, { invoice_format: 'PDF' })).toMatchObject({ pdf_available: true, xml_available: false });
    expect(payloadData(mapped, { invoice_format: 'XRECHNUNG' })).toMatchObject({ xml_available: true });
    expect(payloadData(mapped, null)).toMatchObject({ invoice: null });
  });
});

describe('secrets at rest', () => {
  it('seals and opens with the endpoint id bound, and decrypts with a rotated key list', () => {
    const [k1, k2] = [Buffer.alloc(32, 1), Buffer.alloc(32, 2)];
    const secret = newSigningSecret();
    const sealed = secretBox([k1]).seal(secret, 'we_a');
    expect(sealed).not.toContain(secret.slice(6));
    expect(secretBox([k2, k1]).open(sealed, 'we_a')).toBe(secret);
    expect(() => secretBox([k1]).open(sealed, 'we_b')).toThrow();
    expect(() => secretBox([k2]).open(sealed, 'we_a')).toThrow();
  });

  it('reads keys as base64 or hex and requires them in production', () => {
    expect(secretKeysOf(Buffer.alloc(32, 7).toString('base64'), true)[0]).toEqual(Buffer.alloc(32, 7));
    expect(secretKeysOf('ab'.repeat(32), true)[0]).toHaveLength(32);
    expect(() => secretKeysOf(undefined, true)).toThrow(/required/);
    expect(() => secretKeysOf('c2hvcnQ=', false)).toThrow(/32 bytes/);
    expect(secretKeysOf('CHANGE-ME-webhook-secret-key-for-dev-clusters', false)[0]).toHaveLength(32);
  });
});
