import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { exportOutsideEu, italianDomestic } from './fixtures';
import { toEInvoiceXml, type EInvoiceFormat } from './formats';
import type { EInvoice } from './model';
import { requirementsFor } from './requirements';
import { parseXml } from './test-xml';

/**
 * Every buyer reachable: a Norwegian B2B buyer addressed by its Peppol participant id (0192, no EU VAT ID) and an
 * Italian domestic buyer with SdI code / PEC, Codice Fiscale, Partita IVA and a Skonto, each run through the
 * official conformance kit the way conformance.int.spec.ts runs it (one `validate` call per format).
 */
const VALIDATE = process.env.EINVOICE_VALIDATE ?? join(__dirname, '../../../../shared/conformance/validate');
const run = promisify(execFile);

/** validate's verdict per file: "PASS" or the FAIL line with its errors. */
async function validate(format: EInvoiceFormat, files: string[]): Promise<Map<string, string>> {
  let stdout: string;
  try {
    ({ stdout } = await run(VALIDATE, ['-n', '0', format, ...files], { maxBuffer: 16 * 1024 * 1024 }));
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; code?: number };
    if (err.code !== 1 || !err.stdout) throw new Error(`validate ${format} exited ${err.code}:\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
    stdout = err.stdout; // exit 1: at least one file failed; the lines say which
  }
  const verdicts = new Map<string, string>();
  let current: string | undefined;
  for (const l of stdout.split('\n')) {
    const m = /^(PASS|FAIL) (.+?)(?::.*)?$/.exec(l);
    if (m && files.includes(m[2]!)) {
      current = m[2]!;
      verdicts.set(current, m[1] === 'PASS' ? 'PASS' : l);
    } else if (current && l.trim() && verdicts.get(current) !== 'PASS') verdicts.set(current, `${verdicts.get(current)}\n${l}`);
  }
  return verdicts;
}

/** A German seller reachable by its GLN (company peppol_id 0088:4035811991021) invoicing a Norwegian company: an export (G). */
function norwegianBuyer(endpoint = '987654325'): EInvoice {
  const inv = exportOutsideEu();
  inv.number = 'RE-2026-NO-1';
  inv.seller.electronicAddress = { scheme: '0088', value: '4035811991021' };
  inv.buyer = {
    name: 'Fjordkraft Nordic AS',
    // what customer-service snapshots for peppol_id "0192:987654325": no vat_id, so no VAT ID and no e-mail endpoint
    electronicAddress: { scheme: '0192', value: endpoint },
    address: { line1: 'Karl Johans gate 22', city: 'Oslo', postalCode: '0159', countryCode: 'NO' },
    contact: { email: 'faktura@fjordkraft-nordic.no' },
  };
  return inv;
}

/** An Italian seller invoicing an Italian company that gave its Partita IVA (no vat_id), Codice Fiscale and PEC, with 2 % Skonto in 10 days. */
function italianWithSkonto(): EInvoice {
  const inv = italianDomestic();
  inv.number = 'FT-2026/0043';
  inv.buyer = {
    name: 'Delta Servizi S.r.l.',
    partitaIva: '00743110157',
    fiscalCode: '00743110157',
    pec: 'fatture@pec.deltaservizi.it',
    address: { line1: 'Corso Buenos Aires 7', city: 'Milano', postalCode: '20124', subdivision: 'MI', countryCode: 'IT' },
  };
  inv.dueDate = '2026-12-02';
  inv.paymentTerms = 'Pagamento a 30 giorni; 2 % di sconto per pagamento entro il 12/11/2026.';
  inv.earlyPaymentDiscount = { percent: '2', days: 10, untilDate: '2026-11-12', amount: '39.56' };
  return inv;
}

describe('every buyer reachable (official validator)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'einvoice-reachability-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, xml: string) => {
    const file = join(dir, name);
    writeFileSync(file, xml);
    return file;
  };

  it('PEPPOL: a Norwegian B2B buyer without EU VAT ID is addressed by 0192 (BT-49), the seller by its GLN (BT-34), and passes', async () => {
    const inv = norwegianBuyer();
    expect(requirementsFor('peppol-ubl', inv)).toEqual([]);
    const xml = toEInvoiceXml('peppol-ubl', inv);
    const doc = parseXml(xml);
    const endpoints = doc.all('cbc:EndpointID').map((e) => `${e.getAttribute('schemeID')}:${e.textContent}`);
    expect(endpoints).toEqual(['0088:4035811991021', '0192:987654325']);
    expect(doc.texts('cbc:CompanyID')).not.toContain('NO987654325MVA'); // no buyer VAT ID invented
    expect(xml).toContain('<cbc:ID>G</cbc:ID>'); // export outside the EU
    expect(xml).toContain('VATEX-EU-G');

    const good = write('peppol-no.xml', xml);
    // the same invoice with a wrong 0192 check digit: the official Peppol rules refuse it as we do on input
    const bad = write('peppol-no-bad-check-digit.xml', toEInvoiceXml('peppol-ubl', norwegianBuyer('987654326')));
    const verdicts = await validate('peppol-ubl', [good, bad]);
    expect(verdicts.get(good)).toBe('PASS');
    expect(verdicts.get(bad)).toMatch(/^FAIL/);
    expect(verdicts.get(bad)).toContain('[PEPPOL-COMMON-R041] Norwegian organization number');
  }, 120_000);

  it('FatturaPA: an Italian domestic buyer with PEC, Codice Fiscale, Partita IVA and Skonto passes; a PA recipient code gives FPA12', async () => {
    const inv = italianWithSkonto();
    expect(requirementsFor('fatturapa', inv)).toEqual([]);
    const xml = toEInvoiceXml('fatturapa', inv);
    const doc = parseXml(xml);
    expect(doc.text('CodiceDestinatario')).toBe('0000000');
    expect(doc.text('PECDestinatario')).toBe('fatture@pec.deltaservizi.it');
    const buyer = doc.all('CessionarioCommittente')[0]!;
    expect(buyer.getElementsByTagName('IdPaese')[0]!.textContent).toBe('IT');
    expect(buyer.getElementsByTagName('IdCodice')[0]!.textContent).toBe('00743110157');
    expect(buyer.getElementsByTagName('CodiceFiscale')[0]!.textContent).toBe('00743110157');
    expect(doc.text('CondizioniPagamento')).toBe('TP02');
    expect(doc.text('DataRiferimentoTerminiPagamento')).toBe('2026-11-02');
    expect(doc.text('GiorniTerminiPagamento')).toBe('30');
    expect(doc.text('DataScadenzaPagamento')).toBe('2026-12-02');
    expect(doc.text('ScontoPagamentoAnticipato')).toBe('39.56');
    expect(doc.text('DataLimitePagamentoAnticipato')).toBe('2026-11-12');

    // a person with a 16-character Codice Fiscale, reached by the 7-character SdI code
    const person = italianWithSkonto();
    person.number = 'FT-2026/0044';
    person.buyer = {
      name: 'Mario Rossi',
      firstName: 'Mario',
      lastName: 'Rossi',
      fiscalCode: 'RSSMRA85T10A562S',
      sdiCode: 'M5UXCR1',
      address: { line1: 'Via Garibaldi 3', city: 'Torino', postalCode: '10122', subdivision: 'TO', countryCode: 'IT' },
    };
    const personXml = toEInvoiceXml('fatturapa', person);
    expect(parseXml(personXml).text('CodiceDestinatario')).toBe('M5UXCR1');
    expect(parseXml(personXml).text('PECDestinatario')).toBeUndefined();

    // a public administration: 6-character Codice Ufficio, FPA12
    const pa = italianWithSkonto();
    pa.number = 'FT-2026/0045';
    pa.buyer = {
      ...pa.buyer,
      name: 'Comune di Milano',
      sdiCode: 'UFY9MH',
      pec: undefined,
      partitaIva: undefined,
      fiscalCode: '01199250158',
    };
    const paXml = toEInvoiceXml('fatturapa', pa);
    expect(parseXml(paXml).text('FormatoTrasmissione')).toBe('FPA12');
    expect(paXml).toContain('versione="FPA12"');

    const files = [write('fatturapa-it-skonto.xml', xml), write('fatturapa-it-person.xml', personXml), write('fatturapa-it-pa.xml', paXml)];
    const verdicts = await validate('fatturapa', files);
    for (const f of files) expect(`${f}: ${verdicts.get(f)}`).toBe(`${f}: PASS`);
  }, 120_000);
});
