import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  belgianEnterpriseNumberOk,
  checkCodiceDestinatario,
  checkCodiceFiscale,
  checkPartitaIva,
  checkPeppolId,
  gs1CheckDigitOk,
  italianLuhnOk,
  norwegianOrgNumberOk,
  PEPPOL_EAS_CODES,
} from './participant-ids';

const reason = (r: { ok: boolean; reason?: string }) => (r.ok ? 'ok' : r.reason);

describe('check digits', () => {
  it('GS1 mod-10 (GLN, scheme 0088)', () => {
    expect(gs1CheckDigitOk('4035811991021')).toBe(true);
    expect(gs1CheckDigitOk('5790000435975')).toBe(true);
    expect(gs1CheckDigitOk('4035811991022')).toBe(false);
    expect(gs1CheckDigitOk('4035811991012')).toBe(false); // two digits swapped
  });

  it('Norwegian organisation number mod-11, weights 3,2,7,6,5,4,3,2 (scheme 0192)', () => {
    expect(norwegianOrgNumberOk('987654325')).toBe(true);
    expect(norwegianOrgNumberOk('923609016')).toBe(true); // Equinor ASA
    expect(norwegianOrgNumberOk('987654326')).toBe(false);
    expect(norwegianOrgNumberOk('98765432')).toBe(false);
    expect(norwegianOrgNumberOk('000000000')).toBe(false);
  });

  it('Belgian enterprise number: 97 - (first 8 digits mod 97) = last 2 (scheme 0208)', () => {
    expect(belgianEnterpriseNumberOk('0123456749')).toBe(true);
    expect(belgianEnterpriseNumberOk('0403170701')).toBe(true);
    expect(belgianEnterpriseNumberOk('0123456748')).toBe(false);
    expect(belgianEnterpriseNumberOk('123456749')).toBe(false);
  });

  it('Italian Luhn-like check digit (Partita IVA, numeric Codice Fiscale)', () => {
    expect(italianLuhnOk('01234567897')).toBe(true);
    expect(italianLuhnOk('00743110157')).toBe(true);
    expect(italianLuhnOk('01234567890')).toBe(false);
    expect(italianLuhnOk('0123456789')).toBe(false);
  });
});

describe('checkPeppolId', () => {
  it.each(['0192:987654325', '0088:4035811991021', '0208:0123456749', '9930:DE123456789', '0211:IT01234567897', '0007:5567321707'])(
    'accepts %s',
    (id) => expect(checkPeppolId(id)).toEqual({ ok: true, value: id }),
  );

  it('normalises spaces around and lower case', () => {
    expect(checkPeppolId(' 9930:de123456789 ')).toEqual({ ok: true, value: '9930:DE123456789' });
  });

  it.each([
    ['987654325', 'must be EAS:identifier'],
    ['0192-987654325', 'must be EAS:identifier'],
    ['9999:123456', 'not in the Peppol EAS code list'],
    ['EM:a@b.de', 'must be EAS:identifier'],
    ['0192:987654326', 'fails its mod-11 check digit'],
    ['0192:NO987654325MVA', 'has 9 digits'],
    ['0088:4035811991022', 'fails the GS1 check digit'],
    ['0088:403581199102', 'has 13 digits'],
    ['0208:0123456748', 'fails its mod-97 check'],
    ['0208:BE0123456749', 'has 10 digits'],
    ['9930:FR12345678901', 'country prefix of that scheme'],
    ['9930:DE12', 'needs a VAT ID'],
    ['0060:has space', '1-50 letters, digits'],
  ])('refuses %s (%s)', (id, why) => expect(reason(checkPeppolId(id))).toContain(why));

  it('embeds the Peppol EAS list of the conformance kit (3.0.21): EM is not an endpoint scheme', () => {
    expect(PEPPOL_EAS_CODES).toEqual(expect.arrayContaining(['0088', '0192', '0208', '9930', '0211']));
    expect(PEPPOL_EAS_CODES).not.toContain('EM');
    // the same list as the Peppol rules of the conformance kit (PEPPOL-EN16931-CL008, variable eaid)
    const xslt = readFileSync(join(__dirname, '../../../../shared/conformance/peppol/xslt/PEPPOL-EN16931-UBL.xslt'), 'utf8');
    const eaid = /name="eaid" select="tokenize\('([^']+)'/.exec(xslt)?.[1]?.split(/\s+/);
    expect(PEPPOL_EAS_CODES).toEqual(eaid);
  });
});

describe('Italian identifiers', () => {
  it('Partita IVA: 11 digits with check digit, IT prefix dropped', () => {
    expect(checkPartitaIva('01234567897')).toEqual({ ok: true, value: '01234567897' });
    expect(checkPartitaIva('IT00743110157')).toEqual({ ok: true, value: '00743110157' });
    expect(reason(checkPartitaIva('01234567890'))).toContain('check digit');
    expect(reason(checkPartitaIva('00000000000'))).toContain('check digit');
    expect(reason(checkPartitaIva('1234567'))).toContain('11 digits');
  });

  it('Codice Fiscale: personal (16 characters, check character) or company (11 digits, check digit)', () => {
    expect(checkCodiceFiscale('RSSMRA85T10A562S')).toEqual({ ok: true, value: 'RSSMRA85T10A562S' });
    expect(checkCodiceFiscale('mrtmtt91d08f205j')).toEqual({ ok: true, value: 'MRTMTT91D08F205J' });
    expect(checkCodiceFiscale('01234567897')).toEqual({ ok: true, value: '01234567897' });
    expect(reason(checkCodiceFiscale('RSSMRA85T10A562T'))).toContain('check character');
    expect(reason(checkCodiceFiscale('RSSMRA85Z10A562S'))).toContain('layout'); // Z is no month letter
    expect(reason(checkCodiceFiscale('01234567890'))).toContain('check digit');
    expect(reason(checkCodiceFiscale('RSSMRA85T10'))).toContain('16 characters');
  });

  it('Codice Destinatario: 7 characters (B2B) or 6 (public administration)', () => {
    expect(checkCodiceDestinatario('m5uxcr1')).toEqual({ ok: true, value: 'M5UXCR1' });
    expect(checkCodiceDestinatario('UFY9MH')).toEqual({ ok: true, value: 'UFY9MH' });
    expect(checkCodiceDestinatario('0000000')).toEqual({ ok: true, value: '0000000' });
    expect(reason(checkCodiceDestinatario('ABC12'))).toContain('7 letters or digits');
    expect(reason(checkCodiceDestinatario('ABC-123'))).toContain('7 letters or digits');
  });
});
