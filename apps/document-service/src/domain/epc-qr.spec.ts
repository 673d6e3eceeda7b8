import { buildEpcQr, EPC_MAX_BYTES, epcAmount, epcText, isCreditorReference, type EpcCreditTransfer } from './epc-qr';

const base: EpcCreditTransfer = {
  beneficiaryName: 'Müller & Söhne Softwarehaus GmbH',
  iban: 'DE89 3704 0044 0532 0130 00',
  bic: 'COBADEFFXXX',
  currency: 'EUR',
  amount: '1925.52',
  remittance: 'RE-2026-00042',
  beneficiaryToOriginator: 'Rechnung RE-2026-00042',
};

function payload(t: Partial<EpcCreditTransfer> = {}): string {
  const r = buildEpcQr({ ...base, ...t });
  if (!r.ok) throw new Error(r.message);
  return r.payload;
}

describe('EPC QR payload (EPC069-12, version 002)', () => {
  it('writes the twelve lines in order, LF separated', () => {
    expect(payload().split('\n')).toEqual([
      'BCD',
      '002',
      '1',
      'SCT',
      'COBADEFFXXX',
      'Müller & Söhne Softwarehaus GmbH',
      'DE89370400440532013000',
      'EUR1925.52',
      '',
      '',
      'RE-2026-00042',
      'Rechnung RE-2026-00042',
    ]);
  });

  it('leaves the BIC line empty without a BIC (optional in 002) and drops trailing empty lines', () => {
    const lines = payload({ bic: undefined, beneficiaryToOriginator: undefined }).split('\n');
    expect(lines[4]).toBe('');
    expect(lines).toHaveLength(11);
    expect(lines[10]).toBe('RE-2026-00042');
  });

  it('formats the amount with a decimal point, two decimals and no thousands separators', () => {
    expect(epcAmount('EUR', '1234.5')).toEqual({ ok: true, value: 'EUR1234.50' });
    expect(epcAmount('EUR', '1234')).toEqual({ ok: true, value: 'EUR1234.00' });
    expect(epcAmount('EUR', '0001234.500')).toEqual({ ok: true, value: 'EUR1234.50' });
    expect(epcAmount('EUR', '0.01')).toEqual({ ok: true, value: 'EUR0.01' });
    expect(epcAmount('EUR', '999999999.99')).toEqual({ ok: true, value: 'EUR999999999.99' });
    expect(payload({ amount: '1234567.8' }).split('\n')[7]).toBe('EUR1234567.80');
  });

  it('refuses amounts outside 0.01–999999999.99, with more than two decimals or not decimal', () => {
    for (const amount of ['0', '0.00', '0.001', '1000000000.00', '999999999.991', '12.345', '-5.00', '1,234.50', '1.234,50', '1e3', '']) {
      const r = buildEpcQr({ ...base, amount });
      expect(r).toMatchObject({ ok: false, reason: 'amount' });
    }
  });

  it('refuses a currency other than euro', () => {
    expect(buildEpcQr({ ...base, currency: 'CHF' })).toMatchObject({ ok: false, reason: 'currency' });
    expect(buildEpcQr({ ...base, currency: 'eur' })).toMatchObject({ ok: false, reason: 'currency' });
  });

  it('refuses a missing, invalid or non-SEPA IBAN and an invalid BIC', () => {
    expect(buildEpcQr({ ...base, iban: '' })).toMatchObject({ ok: false, reason: 'iban' });
    expect(buildEpcQr({ ...base, iban: 'DE89370400440532013001' })).toMatchObject({ ok: false, reason: 'iban' }); // check digits
    expect(buildEpcQr({ ...base, iban: 'BR1800360305000010009795493C1' })).toMatchObject({ ok: false, reason: 'iban' }); // valid, not SEPA
    expect(buildEpcQr({ ...base, bic: 'NOTABIC' })).toMatchObject({ ok: false, reason: 'bic' });
    expect(buildEpcQr({ ...base, iban: 'CH9300762011623852957', bic: undefined })).toMatchObject({ ok: true }); // SEPA, outside the EU
  });

  it('refuses an empty name and a purpose that is not a 4-letter code', () => {
    expect(buildEpcQr({ ...base, beneficiaryName: ' \n ' })).toMatchObject({ ok: false, reason: 'name' });
    expect(buildEpcQr({ ...base, purpose: 'gdds' })).toMatchObject({ ok: false, reason: 'purpose' });
    expect(payload({ purpose: 'GDDS' }).split('\n')[8]).toBe('GDDS');
  });

  it('truncates the name to 70 and the remittance to 140 characters, by code point', () => {
    const r = buildEpcQr({
      ...base,
      beneficiaryName: 'N'.repeat(69) + '😀x',
      remittance: 'a'.repeat(139) + 'äx',
      beneficiaryToOriginator: undefined,
    });
    expect(r.ok && r.fields.name).toBe('N'.repeat(69) + '😀');
    expect(r.ok && r.fields.text).toBe('a'.repeat(139) + 'ä');
  });

  it('keeps every field on its line: control characters and line breaks become spaces', () => {
    expect(epcText(' Müller\r\n& Söhne\tGmbH\u2028 ')).toBe('Müller & Söhne GmbH');
    const lines = payload({ beneficiaryName: 'A\nB', remittance: 'RE-1\nRE-2' }).split('\n');
    expect(lines).toHaveLength(12);
    expect(lines[5]).toBe('A B');
    expect(lines[10]).toBe('RE-1 RE-2');
  });

  it('puts an ISO 11649 creditor reference into the structured field, leaving the unstructured one empty', () => {
    expect(isCreditorReference('RF18 5390 0754 7034')).toBe(true);
    expect(isCreditorReference('RF18539007547035')).toBe(false);
    expect(isCreditorReference('RE-2026-00042')).toBe(false);
    const lines = payload({ remittance: 'RF18 5390 0754 7034' }).split('\n');
    expect(lines[9]).toBe('RF18539007547034');
    expect(lines[10]).toBe('');
  });

  it('stays within 331 bytes: gives up the originator info, then remittance text, then name', () => {
    const long = { beneficiaryName: '€'.repeat(70), remittance: '€'.repeat(140), beneficiaryToOriginator: '€'.repeat(70) };
    const r = buildEpcQr({ ...base, ...long });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Buffer.byteLength(r.payload, 'utf8')).toBeLessThanOrEqual(EPC_MAX_BYTES);
    expect(r.fields.info).toBeUndefined();
    expect(r.fields.name).toBe('€'.repeat(70));
    expect(r.fields.text!.length).toBeGreaterThan(10);
    // plain ASCII at the limits fits without giving anything up except part of the info
    const ascii = buildEpcQr({
      ...base,
      beneficiaryName: 'N'.repeat(70),
      remittance: 'R'.repeat(140),
      beneficiaryToOriginator: 'I'.repeat(70),
    });
    expect(ascii.ok && Buffer.byteLength(ascii.payload)).toBe(EPC_MAX_BYTES);
    expect(ascii.ok && ascii.fields.name).toBe('N'.repeat(70));
    expect(ascii.ok && ascii.fields.text).toBe('R'.repeat(140));
  });
});
