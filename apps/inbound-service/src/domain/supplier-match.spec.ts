import type { InboundContent } from '@inv/contracts';
import { ibanDiffers, matchSupplier } from './supplier-match';

const content = (seller: Partial<InboundContent['seller']>, ibans: string[] = []): InboundContent => ({
  preceding_invoices: [],
  notes: [],
  seller: { identifiers: [], ...seller },
  buyer: { identifiers: [] },
  lines: [],
  allowances_charges: [],
  vat_breakdown: [],
  totals: {},
  payment_means: ibans.map((iban) => ({ code: '58', iban })),
  attachments: [],
});

describe('matchSupplier', () => {
  const register = [
    { id: 3, ibans: ['DE02120300000000202051'] },
    { id: 2, peppolId: '0204:991-1234-56', ibans: [] },
    { id: 1, vatId: 'DE123456789', ibans: ['DE75512108001245126199'] },
  ];
  it('prefers the VAT ID, then the Peppol id, then an IBAN', () => {
    expect(matchSupplier(register, content({ vat_id: 'de 123456789' }, ['DE02120300000000202051']))?.id).toBe(1);
    expect(
      matchSupplier(register, content({ electronic_address: { scheme: '0204', value: '991-1234-56' } }, ['DE02120300000000202051']))?.id,
    ).toBe(2);
    expect(matchSupplier(register, content({}, ['DE02 1203 0000 0000 2020 51']))?.id).toBe(3);
    expect(matchSupplier(register, content({ vat_id: 'FR00000000000' }))).toBeUndefined();
  });
  it('flags an IBAN the matched entry does not list, never one without a register IBAN', () => {
    expect(ibanDiffers(register[2], content({}, ['DE02120300000000202051']))).toBe(true);
    expect(ibanDiffers(register[2], content({}, ['de75 5121 0800 1245 1261 99']))).toBe(false);
    expect(ibanDiffers(register[1], content({}, ['DE02120300000000202051']))).toBe(false);
    expect(ibanDiffers(undefined, content({}, ['DE02120300000000202051']))).toBe(false);
  });
});
