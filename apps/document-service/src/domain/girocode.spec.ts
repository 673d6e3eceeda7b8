import type { EInvoice } from '@inv/einvoice';
import { sampleInvoice } from '../pdf/testing/fixtures';
import { girocodeFor } from './girocode';

const fields = (invoice: EInvoice, amountDue = '1709.44') => {
  const r = girocodeFor(invoice, amountDue);
  return r.ok ? r.fields : r.reason;
};

describe('girocodeFor (which invoices carry an EPC QR code)', () => {
  it('an invoice paid by SEPA credit transfer: account holder, IBAN, BIC, amount due, invoice number', () => {
    expect(fields(sampleInvoice(2))).toEqual({
      name: 'Müller & Söhne Softwarehaus GmbH',
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      amount: 'EUR1709.44',
      text: 'RE-2026-00042',
      info: 'Rechnung RE-2026-00042',
    });
  });

  it('uses the remittance info the payment paragraph prints, and the seller without an account holder', () => {
    const invoice = sampleInvoice(1, { language: 'en' });
    invoice.payment = { meansCode: '30', iban: 'DE89370400440532013000', remittanceInfo: 'Kd 10042 / RE-2026-00042' };
    expect(fields(invoice)).toMatchObject({ name: invoice.seller.name, text: 'Kd 10042 / RE-2026-00042', info: 'Invoice RE-2026-00042' });
    expect(fields(invoice)).not.toHaveProperty('bic');
  });

  it('the full amount due, also with Skonto', () => {
    const invoice = sampleInvoice(1, { earlyPaymentDiscount: { percent: '2', untilDate: '2026-11-30', amount: '28.26', days: 10 } });
    expect(fields(invoice, '1413.13')).toMatchObject({ amount: 'EUR1413.13' });
  });

  it('none on credit notes, without an amount due, without IBAN or for other payment means', () => {
    expect(fields(sampleInvoice(1, { typeCode: '381' }))).toBe('not-applicable');
    expect(fields(sampleInvoice(1), '0.00')).toBe('not-applicable');
    expect(fields(sampleInvoice(1), '-10.00')).toBe('not-applicable');
    expect(fields(sampleInvoice(1, { payment: { meansCode: '58' } }))).toBe('not-applicable');
    expect(fields(sampleInvoice(1, { payment: undefined }))).toBe('not-applicable');
    for (const meansCode of ['1', '97'] as const) {
      expect(fields(sampleInvoice(1, { payment: { meansCode, iban: 'DE89370400440532013000' } }))).toBe('not-applicable');
    }
  });

  it('refused by the payload rules: a foreign currency, an amount above 999999999.99, a bad IBAN', () => {
    expect(fields(sampleInvoice(1, { currency: 'USD' as 'EUR' }))).toBe('currency');
    expect(fields(sampleInvoice(1), '1000000000.00')).toBe('amount');
    expect(fields(sampleInvoice(1, { payment: { meansCode: '58', iban: 'DE00123' } }))).toBe('iban');
  });
});
