import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '@inv/service-kit';
import { CAMT_MAX_BYTES, guardStatementXml, parseCamt053, readAmount, readDate } from './camt053';

const fixture = readFileSync(join(__dirname, '../../testing/camt053-fixture.xml'));
const parse = (xml: string | Buffer) => parseCamt053(guardStatementXml(typeof xml === 'string' ? Buffer.from(xml) : xml));

/** The AppError a call throws: status and code. */
function refusal(fn: () => unknown): { status: number; code: string; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, code: err.code, message: err.message };
    throw err;
  }
  throw new Error('did not throw');
}

const doc = (ns: string, entries: string, root = 'Document') =>
  `<?xml version="1.0"?><${root} xmlns="${ns}"><BkToCstmrStmt><GrpHdr><MsgId>M1</MsgId></GrpHdr>` +
  `<Stmt><Id>S1</Id><Acct><Id><IBAN>DE44500105175407324931</IBAN></Id></Acct>${entries}</Stmt></BkToCstmrStmt></${root}>`;
const v = (n: string) => `urn:iso:std:iso:20022:tech:xsd:camt.053.001.${n}`;
const entry = (amt = '10.00', extra = '') =>
  `<Ntry><Amt Ccy="EUR">${amt}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-11-02</Dt></BookgDt>${extra}</Ntry>`;

describe('camt.053 reader', () => {
  it('reads the fixture: statement, account, every entry with payer, remittance and references', () => {
    const d = parse(fixture);
    expect(d).toMatchObject({
      version: '08',
      messageId: 'MSG-2026-11-27-0001',
      statements: [{ id: 'STMT-2026-11-26', accountIban: 'DE44500105175407324931', currency: 'EUR' }],
    });
    expect(d.lines).toHaveLength(5);
    expect(d.lines[0]).toEqual({
      index: 1,
      statementId: 'STMT-2026-11-26',
      entryRef: '1',
      bankRef: 'BANKREF-0001',
      amount: '119.00',
      cents: 11900,
      currency: 'EUR',
      credit: true,
      reversal: false,
      status: 'BOOK',
      bookingDate: '2026-11-26',
      valueDate: '2026-11-26',
      payerName: 'Muster GmbH',
      payerIban: 'DE89370400440532013000',
      endToEndId: 'E2E-MUSTER-1',
      unstructured: ['Rechnung re 2026 0001, Kd.-Nr. 4711'],
      references: [],
      additionalInfo: undefined,
    });
    expect(d.lines[1]).toMatchObject({ references: ['RF13RE20260002'], endToEndId: undefined, payerName: 'Holding of Buyer Two KG' });
    expect(d.lines[3]!.payerName).toBe('Unbekannt & Co');
    expect(d.lines[4]).toMatchObject({ credit: false, amount: '12.50', additionalInfo: 'Kontofuehrung November', unstructured: [] });
  });

  it('accepts versions 02, 04 and 08 with their spellings (Sts as text, TxAmt, Dbtr without Pty)', () => {
    const v02 = entry(
      '5',
      '<NtryDtls><TxDtls><AmtDtls><TxAmt><Amt Ccy="EUR">5</Amt></TxAmt></AmtDtls><RltdPties><Dbtr><Nm>Alt Name</Nm></Dbtr></RltdPties></TxDtls></NtryDtls>',
    );
    for (const n of ['02', '04', '08', '13']) {
      const d = parse(doc(v(n), v02));
      expect(d.version).toBe(n);
      expect(d.lines[0]).toMatchObject({ amount: '5.00', cents: 500, payerName: 'Alt Name', status: 'BOOK' });
    }
  });

  it('splits a batch entry whose transactions carry their own amounts', () => {
    const tx = (amt: string, ref: string) => `<TxDtls><Amt Ccy="EUR">${amt}</Amt><RmtInf><Ustrd>${ref}</Ustrd></RmtInf></TxDtls>`;
    const d = parse(
      doc(v('08'), entry('30.00', `<NtryDtls><Btch><NbOfTxs>2</NbOfTxs></Btch>${tx('10.00', 'A-1')}${tx('20.00', 'B-2')}</NtryDtls>`)),
    );
    expect(d.lines.map((l) => [l.index, l.amount, l.unstructured[0]])).toEqual([
      [1, '10.00', 'A-1'],
      [2, '20.00', 'B-2'],
    ]);
  });

  it('refuses other documents: 400 NOT_CAMT053', () => {
    expect(refusal(() => parse(doc('urn:iso:std:iso:20022:tech:xsd:camt.052.001.08', entry())))).toMatchObject({
      status: 400,
      code: 'NOT_CAMT053',
    });
    expect(refusal(() => parse(doc(v('01'), entry())))).toMatchObject({ code: 'NOT_CAMT053' });
    expect(refusal(() => parse(doc(v('08'), entry(), 'Invoice')))).toMatchObject({ code: 'NOT_CAMT053' });
    expect(refusal(() => parse('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>'))).toMatchObject({
      code: 'NOT_CAMT053',
    });
  });

  it('refuses malformed XML, DTDs and entities, other encodings', () => {
    expect(refusal(() => parse(doc(v('08'), entry()).replace('</Stmt>', '')))).toMatchObject({ status: 400, code: 'XML_NOT_WELL_FORMED' });
    expect(refusal(() => parse(''))).toMatchObject({ code: 'XML_NOT_WELL_FORMED' });
    expect(refusal(() => parse('not xml at all'))).toMatchObject({ code: 'XML_NOT_WELL_FORMED' });
    const xxe = `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>${doc(v('08'), entry('10', '<AddtlNtryInf>&x;</AddtlNtryInf>')).replace(/^<\?xml[^>]*>/, '')}`;
    expect(refusal(() => parse(xxe))).toMatchObject({ status: 400, code: 'XML_DTD_FORBIDDEN' });
    // an entity reference without a declaration is not expanded: not well-formed
    expect(refusal(() => parse(doc(v('08'), entry('10', '<AddtlNtryInf>&x;</AddtlNtryInf>'))))).toMatchObject({
      code: 'XML_NOT_WELL_FORMED',
    });
    expect(refusal(() => parse(Buffer.from(doc(v('08'), entry()), 'utf16le')))).toMatchObject({ code: 'XML_NOT_WELL_FORMED' });
    expect(refusal(() => parse(doc(v('08'), entry()).replace('version="1.0"', 'version="1.0" encoding="ISO-8859-1"')))).toMatchObject({
      code: 'XML_ENCODING_UNSUPPORTED',
    });
  });

  it('refuses malformed amounts, dates, IBANs and currencies with the place of each: 400 BANK_STATEMENT_INVALID', () => {
    const bad = refusal(() =>
      parse(
        doc(
          v('08'),
          entry('12,50') +
            entry('-3') +
            `<Ntry><Amt Ccy="eur">1</Amt><CdtDbtInd>X</CdtDbtInd><BookgDt><Dt>2026-02-30</Dt></BookgDt></Ntry>` +
            entry('1', '<NtryDtls><TxDtls><RltdPties><DbtrAcct><Id><IBAN>DE00123</IBAN></Id></DbtrAcct></RltdPties></TxDtls></NtryDtls>'),
        ),
      ),
    );
    expect(bad).toMatchObject({ status: 400, code: 'BANK_STATEMENT_INVALID' });
    for (const part of [
      'Ntry[1]/Amt',
      'Ntry[2]/Amt',
      'Ntry[3]/Amt/@Ccy',
      'Ntry[3]/CdtDbtInd',
      'Ntry[3]/BookgDt',
      'Ntry[4]/RltdPties/DbtrAcct/Id/IBAN',
    ])
      expect(bad.message).toContain(part);
    expect(refusal(() => parse(doc(v('08'), entry()).replace('DE44500105175407324931', 'DE44500105175407324932')))).toMatchObject({
      code: 'BANK_STATEMENT_INVALID',
    });
  });

  it('refuses more than 50,000 lines (413) and files over 20 MiB (413)', () => {
    const many = doc(v('08'), entry().repeat(50_001));
    expect(refusal(() => parse(many))).toMatchObject({ status: 413, code: 'BANK_STATEMENT_TOO_MANY_ENTRIES' });
    expect(refusal(() => guardStatementXml(new Uint8Array(CAMT_MAX_BYTES + 1)))).toMatchObject({
      status: 413,
      code: 'BANK_STATEMENT_TOO_LARGE',
    });
    const oneStmt = '<Stmt><Id>S</Id><Acct><Id><IBAN>DE44500105175407324931</IBAN></Id></Acct></Stmt>';
    const stmts = doc(v('08'), '').replace(/<Stmt>.*<\/Stmt>/, oneStmt.repeat(1001));
    expect(refusal(() => parse(stmts))).toMatchObject({ status: 413, code: 'BANK_STATEMENT_TOO_MANY_ENTRIES' });
  });

  it('reads amounts and dates strictly', () => {
    expect(readAmount('0119.5')).toEqual({ amount: '119.50', cents: 11950 });
    expect(readAmount('1.23456')).toEqual({ amount: '1.23456', cents: undefined });
    expect(readAmount('1e3')).toBeUndefined();
    expect(readDate('2026-11-26T10:00:00+01:00')).toBe('2026-11-26');
    expect(readDate('2026-13-01')).toBeUndefined();
    expect(readDate('2026-11-26x')).toBeUndefined();
  });
});
