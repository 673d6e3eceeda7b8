import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultKitDir } from './conformance-kit';
import { readContent } from './read-content';
import { parseXml } from './validator';

const KIT = process.env.INBOUND_CONFORMANCE_DIR ?? defaultKitDir();
const read = (path: string, syntax: 'ubl' | 'cii', edit: (x: string) => string = (x) => x) =>
  readContent(parseXml(edit(readFileSync(join(KIT, path), 'utf8'))), syntax);

describe('readContent: the service period (BT-73/74) and the VAT accounting currency (BT-6, BT-111)', () => {
  it('reads the invoicing period of the document, not of a line', () => {
    // the official XRechnung example states a period on a line only
    expect(read('xrechnung/examples/01.01a-INVOICE_ubl.xml', 'ubl').service_period).toBeUndefined();
    expect(read('xrechnung/examples/01.01a-INVOICE_uncefact.xml', 'cii').service_period).toBeUndefined();
    const ubl = read('xrechnung/examples/01.01a-INVOICE_ubl.xml', 'ubl', (x) =>
      x.replace(
        '<cac:AccountingSupplierParty>',
        '<cac:InvoicePeriod><cbc:StartDate>2026-10-01</cbc:StartDate><cbc:EndDate>2026-10-31</cbc:EndDate></cac:InvoicePeriod><cac:AccountingSupplierParty>',
      ),
    );
    expect(ubl.service_period).toEqual({ start: '2026-10-01', end: '2026-10-31' });
    const cii = read('xrechnung/examples/01.01a-INVOICE_uncefact.xml', 'cii', (x) =>
      x.replace(
        /(<ram:ApplicableHeaderTradeSettlement>[\s\S]*?)(<ram:SpecifiedTradePaymentTerms>)/,
        '$1<ram:BillingSpecifiedPeriod><ram:StartDateTime><udt:DateTimeString format="102">20261101</udt:DateTimeString></ram:StartDateTime></ram:BillingSpecifiedPeriod>$2',
      ),
    );
    expect(cii.service_period).toEqual({ start: '2026-11-01' });
  });

  it('reads the VAT total in the accounting currency beside the document currency', () => {
    for (const [path, syntax] of [
      ['en16931/ubl/examples/ubl-tc434-example5.xml', 'ubl'],
      ['en16931/cii/examples/CII_example5.xml', 'cii'],
    ] as const) {
      const c = read(path, syntax);
      expect([c.currency, c.tax_currency, c.totals.tax_total, c.totals.tax_total_tax_currency]).toEqual(['DKK', 'EUR', '675.00', '628.62']);
    }
    const eur = read('xrechnung/examples/01.01a-INVOICE_ubl.xml', 'ubl');
    expect([eur.currency, eur.tax_currency, eur.totals.tax_total_tax_currency]).toEqual(['EUR', undefined, undefined]);
  });
});
