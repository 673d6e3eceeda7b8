import { checkPartyIdentifier, ICD_CODES, isIcdCode } from './party-identifiers';

describe('checkPartyIdentifier (BT-29, BT-30)', () => {
  it('knows the ICD codes EN 16931 accepts', () => {
    expect(ICD_CODES).toHaveLength(243);
    for (const c of ['0002', '0060', '0088', '0106', '0192', '0248']) expect(isIcdCode(c)).toBe(true);
    for (const c of ['0001', '0092', '0103', '0181', '0182', '0249', '9930', 'SEPA', '88', '']) expect(isIcdCode(c)).toBe(false);
  });

  it('takes any identifier without a scheme, trimmed', () => {
    expect(checkPartyIdentifier('  Lieferant 70815 ')).toEqual({ ok: true, value: 'Lieferant 70815' });
    expect(checkPartyIdentifier('   ')).toEqual({ ok: false, reason: 'must not be empty' });
  });

  it.each([
    ['0088', '4000001000005', '4000001000005'],
    ['0088', '4000 0010 0000 5', '4000001000005'],
    ['0192', '987 654 325', '987654325'],
    ['0208', '0123.456.749', '0123456749'],
    ['0106', '12345678', '12345678'],
    ['0007', '5560360793', '5560360793'],
    ['0151', '51824753556', '51824753556'],
    ['0184', 'DK12345678', 'DK12345678'],
    ['0211', '01234567897', '01234567897'],
    ['0060', 'd-u-n-s 123', 'd-u-n-s 123'],
  ])('scheme %s: %j is %j', (scheme, input, value) => {
    expect(checkPartyIdentifier(input, scheme)).toEqual({ ok: true, value });
  });

  it.each([
    ['0088', '4000001000006', /GLN \(0088\)/],
    ['0088', '400000100000', /GLN \(0088\)/],
    ['0192', '987654326', /Norwegian/],
    ['0208', '0123456748', /Belgian/],
    ['0106', 'HRB 12345', /KvK/],
    ['0007', '5560360794', /Swedish/],
    ['0151', '51824753557', /Australian/],
    ['0211', '01234567890', /Partita IVA/],
    ['9930', 'DE123456789', /not an ISO 6523 ICD code/],
  ])('scheme %s refuses %j', (scheme, input, reason) => {
    expect(checkPartyIdentifier(input, scheme)).toEqual({ ok: false, reason: expect.stringMatching(reason) });
  });
});
