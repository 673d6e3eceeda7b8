import { computeTotals } from '@inv/money';
import { toCii } from './cii';
import { toFacturae } from './facturae';
import { toFatturaPA } from './fatturapa';
import {
  b2cInvoice,
  creditNote,
  domesticMixedRates,
  exemptInvoice,
  intraCommunityGoods,
  lineDiscounts,
  longInvoice,
  exportOutsideEu,
  norwegianBuyerExport,
  smallBusinessWithRegistration,
  smallBusinessWithSellerIdentifier,
  smallBusinessWithUnschemedIdentifier,
  ukBuyerExport,
  prepaidNoPaymentDue,
  publicSectorBuyer,
  reverseChargeServices,
} from './fixtures';
import type { EInvoice } from './model';
import { parseXml } from './test-xml';
import { invoiceTotals } from './totals';
import { toUbl } from './ubl';

function tricky(): EInvoice {
  const inv = domesticMixedRates();
  inv.buyer.name = 'Müller & Söhne <Technik> "Ärger" GmbH';
  inv.lines[0]!.name = 'Crème brûlée & <b>Tags</b> – “quoted” €';
  inv.notes = ['a < b && c > d'];
  return inv;
}

describe('CII writer', () => {
  it('writes the Factur-X EN 16931 guideline and document data', () => {
    const x = parseXml(toCii(domesticMixedRates(), { profile: 'en16931' }));
    expect(x.root.tagName).toBe('rsm:CrossIndustryInvoice');
    expect(x.text('ram:GuidelineSpecifiedDocumentContextParameter')?.trim()).toBe('urn:cen.eu:en16931:2017');
    expect(x.count('ram:BusinessProcessSpecifiedDocumentContextParameter')).toBe(0);
    expect(x.text('ram:TypeCode')).toBe('380');
    expect(x.texts('udt:DateTimeString')[0]).toBe('20261102');
    expect(x.count('ram:IncludedSupplyChainTradeLineItem')).toBe(4);
  });

  it('writes the XRechnung 3.0 guideline and the Leitweg-ID as buyer reference', () => {
    const x = parseXml(toCii(publicSectorBuyer(), { profile: 'xrechnung' }));
    expect(x.text('ram:GuidelineSpecifiedDocumentContextParameter')?.trim()).toBe(
      'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
    );
    expect(x.text('ram:BuyerReference')).toBe('04011000-12345-03');
  });

  it('takes every total from computeTotals', () => {
    const inv = lineDiscounts();
    const t = invoiceTotals(inv);
    const x = parseXml(toCii(inv, { profile: 'en16931' }));
    expect(x.texts('ram:LineTotalAmount')).toEqual([...t.lines.map((l) => l.net), t.lineNetTotal]);
    expect(x.text('ram:GrandTotalAmount')).toBe(t.taxInclusiveTotal);
    expect(x.text('ram:DuePayableAmount')).toBe(t.amountDue);
    expect(x.texts('ram:CalculatedAmount')).toEqual(t.vatBreakdown.map((v) => v.taxAmount));
    // percentage discount with base and percent, fixed one with the amount only
    expect(x.texts('ram:CalculationPercent')).toEqual(['10', '12.5']);
    expect(x.texts('ram:ActualAmount')).toEqual(t.lines.map((l) => l.allowance));
  });

  it('writes exemption reason and VATEX code for reverse charge', () => {
    const x = parseXml(toCii(reverseChargeServices(), { profile: 'en16931' }));
    expect(x.text('ram:ExemptionReasonCode')).toBe('VATEX-EU-AE');
    expect(x.text('ram:ExemptionReason')).toBe('Reverse charge');
  });

  it('writes the preceding invoice of a credit note', () => {
    const x = parseXml(toCii(creditNote(), { profile: 'en16931' }));
    expect(x.text('ram:TypeCode')).toBe('381');
    expect(x.text('ram:IssuerAssignedID')).toBe('RE-2026-0001');
  });

  it('escapes &, < and quotes and keeps umlauts and accents', () => {
    const xml = toCii(tricky(), { profile: 'en16931' });
    expect(xml).toContain('Müller &amp; Söhne &lt;Technik&gt; "Ärger" GmbH');
    expect(xml).toContain('Crème brûlée &amp; &lt;b&gt;Tags&lt;/b&gt; – “quoted” €');
    const x = parseXml(xml);
    expect(x.texts('ram:Name')).toContain('Müller & Söhne <Technik> "Ärger" GmbH');
  });

  it('writes the prepaid amount and a zero amount due', () => {
    const x = parseXml(toCii(prepaidNoPaymentDue(), { profile: 'en16931' }));
    expect(x.text('ram:TotalPrepaidAmount')).toBe('142.80');
    expect(x.text('ram:DuePayableAmount')).toBe('0.00');
    expect(x.texts('ram:TypeCode')).toContain('1');
    const u = parseXml(toUbl(prepaidNoPaymentDue(), { profile: 'peppol' }));
    expect(u.text('cbc:PrepaidAmount')).toBe('142.80');
    expect(u.text('cbc:PayableAmount')).toBe('0.00');
    expect(parseXml(toFatturaPA(prepaidNoPaymentDue())).count('DatiPagamento')).toBe(0);
    const f = parseXml(toFacturae(prepaidNoPaymentDue()));
    expect(f.text('TotalPaymentsOnAccount')).toBe('142.80');
    expect(f.text('TotalExecutableAmount')).toBe('0.00');
    expect(f.count('PaymentDetails')).toBe(0);
  });

  it('rejects an unknown profile', () => {
    expect(() => toCii(domesticMixedRates(), { profile: 'basic' as never })).toThrow(/unknown CII profile/);
  });

  it('rejects a malformed date', () => {
    const inv = domesticMixedRates();
    inv.issueDate = '02.11.2026';
    expect(() => toCii(inv, { profile: 'en16931' })).toThrow(/YYYY-MM-DD/);
  });
});

describe('UBL writer', () => {
  it('writes a Peppol BIS 3 invoice', () => {
    const x = parseXml(toUbl(domesticMixedRates(), { profile: 'peppol' }));
    expect(x.root.tagName).toBe('Invoice');
    expect(x.root.getAttribute('xmlns')).toBe('urn:oasis:names:specification:ubl:schema:xsd:Invoice-2');
    expect(x.text('cbc:CustomizationID')).toBe('urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0');
    expect(x.text('cbc:ProfileID')).toBe('urn:fdc:peppol.eu:2017:poacc:billing:01:1.0');
    expect(x.count('cac:InvoiceLine')).toBe(4);
    expect(x.all('cbc:EndpointID')[0]!.getAttribute('schemeID')).toBe('9930');
  });

  it('writes a credit note with the CreditNote root and a BillingReference', () => {
    const x = parseXml(toUbl(creditNote(), { profile: 'xrechnung' }));
    expect(x.root.tagName).toBe('CreditNote');
    expect(x.root.getAttribute('xmlns')).toBe('urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2');
    expect(x.text('cbc:CreditNoteTypeCode')).toBe('381');
    expect(x.count('cbc:InvoiceTypeCode')).toBe(0);
    expect(x.count('cac:CreditNoteLine')).toBe(2);
    expect(x.count('cbc:CreditedQuantity')).toBe(2);
    const ref = x.all('cac:InvoiceDocumentReference')[0]!;
    expect(ref.getElementsByTagName('cbc:ID')[0]!.textContent).toBe('RE-2026-0001');
    expect(ref.getElementsByTagName('cbc:IssueDate')[0]!.textContent).toBe('2026-11-02');
  });

  it('omits the ProfileID for plain EN 16931 and writes the bare customization id', () => {
    const x = parseXml(toUbl(domesticMixedRates(), { profile: 'en16931' }));
    expect(x.text('cbc:CustomizationID')).toBe('urn:cen.eu:en16931:2017');
    expect(x.count('cbc:ProfileID')).toBe(0);
  });

  it('writes the intra-community supply with delivery data and VATEX-EU-IC', () => {
    const x = parseXml(toUbl(intraCommunityGoods(), { profile: 'peppol' }));
    expect(x.text('cbc:ActualDeliveryDate')).toBe('2026-10-28');
    expect(x.texts('cbc:TaxExemptionReasonCode')).toEqual(['VATEX-EU-IC']);
    expect(x.text('cbc:TaxExemptionReason')).toBe('Intra-Community supply');
  });

  it('takes the buyer address as deliver-to of an intra-community supply without one (BR-IC-12)', () => {
    const inv = intraCommunityGoods();
    delete inv.deliverTo;
    const x = parseXml(toUbl(inv, { profile: 'peppol' }));
    const loc = x.all('cac:DeliveryLocation')[0]!;
    expect(loc.getElementsByTagName('cbc:CityName')[0]!.textContent).toBe('Amsterdam');
    const c = parseXml(toCii(inv, { profile: 'en16931' }));
    expect(c.all('ram:ShipToTradeParty')[0]!.getElementsByTagName('ram:CountryID')[0]!.textContent).toBe('NL');
    expect(parseXml(toUbl(domesticMixedRates(), { profile: 'peppol' })).count('cac:Delivery')).toBe(0);
  });

  it('uses the invoice exemption text over the default one', () => {
    const x = parseXml(toUbl(exemptInvoice(), { profile: 'en16931' }));
    expect(x.text('cbc:TaxExemptionReason')).toBe('Steuerfreie Bildungsleistung gemäß § 4 Nr. 21 UStG');
  });

  it('writes currencyID on every amount', () => {
    const xml = toUbl(longInvoice(20), { profile: 'peppol' });
    const amounts = xml.match(/<cbc:(?:\w*Amount)[^>]*>/g) ?? [];
    expect(amounts.length).toBeGreaterThan(40);
    for (const a of amounts) expect(a).toContain('currencyID="EUR"');
  });

  it('numbers the lines 1..n in the document (BT-126), whatever the positions are called elsewhere', () => {
    const inv = creditNote();
    inv.lines = inv.lines.map((line, i) => ({ ...line, id: String(i + 6) }));
    const xml = toUbl(inv, { profile: 'peppol' });
    const ids = [...xml.matchAll(/<cac:CreditNoteLine>\s*<cbc:ID>([^<]*)<\/cbc:ID>/g)].map((m) => m[1]);
    expect(ids).toEqual(inv.lines.map((_, i) => String(i + 1)));
    const cii = parseXml(toCii(inv, { profile: 'en16931' }));
    expect(cii.texts('ram:LineID')).toEqual(inv.lines.map((_, i) => String(i + 1)));
  });

  it('rejects an unknown profile', () => {
    expect(() => toUbl(domesticMixedRates(), { profile: 'ubl-en16931' as never })).toThrow(/unknown UBL profile/);
  });

  it('escapes special characters', () => {
    const xml = toUbl(tricky(), { profile: 'peppol' });
    expect(xml).toContain('<cbc:Note>a &lt; b &amp;&amp; c &gt; d</cbc:Note>');
    expect(parseXml(xml).texts('cbc:RegistrationName')).toContain('Müller & Söhne <Technik> "Ärger" GmbH');
  });
});

describe('FatturaPA writer', () => {
  it('writes FPR12 with the Italian structure', () => {
    const x = parseXml(toFatturaPA(domesticMixedRates()));
    expect(x.root.tagName).toBe('p:FatturaElettronica');
    expect(x.root.getAttribute('versione')).toBe('FPR12');
    for (const el of ['DatiTrasmissione', 'CedentePrestatore', 'CessionarioCommittente', 'DatiBeniServizi', 'DatiRiepilogo']) {
      expect(x.count(el)).toBeGreaterThan(0);
    }
    expect(x.text('TipoDocumento')).toBe('TD01');
    expect(x.text('CodiceDestinatario')).toBe('XXXXXXX'); // foreign (German) buyer
    expect(x.texts('AliquotaIVA').slice(-2)).toEqual(['19.00', '7.00']);
  });

  it('uses Natura codes for non-S categories and TD04 for credit notes', () => {
    expect(parseXml(toFatturaPA(reverseChargeServices())).texts('Natura')).toContain('N2.1');
    expect(parseXml(toFatturaPA(intraCommunityGoods())).texts('Natura')).toContain('N3.2');
    expect(parseXml(toFatturaPA(exemptInvoice())).texts('Natura')).toContain('N4');
    const cn = parseXml(toFatturaPA(creditNote()));
    expect(cn.text('TipoDocumento')).toBe('TD04');
    expect(cn.text('IdDocumento')).toBe('RE-2026-0001');
  });

  it('splits consumers into Nome/Cognome and keeps Latin-1 accents while mapping other characters', () => {
    const x = parseXml(toFatturaPA(b2cInvoice()));
    expect(x.text('Nome')).toBe('Zoë');
    expect(x.text('Cognome')).toBe('Weiß-Öztürk');
    const t = parseXml(toFatturaPA(tricky()));
    expect(t.texts('Descrizione')[0]).toBe('Crème brûlée & <b>Tags</b> - "quoted" EUR - Sprint 42: Schnittstelle zur Buchhaltung');
  });

  it('writes quantities and prices with 2 to 8 decimals', () => {
    const x = parseXml(toFatturaPA(lineDiscounts()));
    expect(x.texts('Quantita')).toEqual(['7.25', '1.125', '3.00', '2.50']);
    expect(x.texts('PrezzoUnitario')).toEqual(['120.00', '3.3333', '199.99', '8.4567']);
  });

  it('requires the seller VAT ID', () => {
    const inv = domesticMixedRates();
    delete inv.seller.vatId;
    expect(() => toFatturaPA(inv)).toThrow(/seller VAT ID/);
  });
});

describe('Facturae writer', () => {
  it('writes an unsigned 3.2.2 file with alpha-3 countries', () => {
    const x = parseXml(toFacturae(domesticMixedRates()));
    expect(x.root.tagName).toBe('fe:Facturae');
    expect(x.text('SchemaVersion')).toBe('3.2.2');
    expect(x.count('ds:Signature')).toBe(0);
    expect(x.texts('CountryCode')).toEqual(['DEU', 'DEU']);
    expect(x.texts('ResidenceTypeCode')).toEqual(['U', 'U']);
    expect(x.text('InvoiceTotal')).toBe(invoiceTotals(domesticMixedRates()).taxInclusiveTotal);
    expect(x.text('BIC')).toBe('BYLADEM1001');
  });

  it('writes a credit note as corrective invoice by differences with negative amounts', () => {
    const x = parseXml(toFacturae(creditNote()));
    expect(x.text('InvoiceClass')).toBe('OR');
    expect(x.text('CorrectionMethod')).toBe('02');
    const total = computeTotals({ lines: creditNote().lines }).taxInclusiveTotal;
    expect(x.text('InvoiceTotal')).toBe(`-${total}`);
  });

  it('needs a buyer tax identification', () => {
    expect(() => toFacturae(b2cInvoice())).toThrow(/tax identification/);
  });
});

describe('seller identifiers (BT-29, BT-30) and non-EU buyer tax numbers (BT-48)', () => {
  it('CII: BT-29 as GlobalID with its scheme or as ID without, BT-30 with its scheme, before and inside the seller party', () => {
    const withScheme = parseXml(toCii(smallBusinessWithSellerIdentifier()));
    const seller = withScheme.all('ram:SellerTradeParty')[0]!;
    const gid = Array.from(seller.getElementsByTagName('ram:GlobalID'));
    expect(gid.map((e) => [e.getAttribute('schemeID'), e.textContent])).toEqual([['0088', '4000001000005']]);
    expect(withScheme.count('ram:SpecifiedLegalOrganization')).toBe(0);
    const plain = parseXml(toCii(smallBusinessWithUnschemedIdentifier())).all('ram:SellerTradeParty')[0]!;
    expect(plain.getElementsByTagName('ram:ID')[0]!.textContent).toBe('Lieferant 70815');
    expect(plain.getElementsByTagName('ram:GlobalID').length).toBe(0);
    const reg = parseXml(toCii(smallBusinessWithRegistration())).all('ram:SpecifiedLegalOrganization')[0]!;
    const id = reg.getElementsByTagName('ram:ID')[0]!;
    expect([id.getAttribute('schemeID'), id.textContent]).toEqual(['0106', '12345678']);
  });

  it('UBL: BT-29 as PartyIdentification, BT-30 as PartyLegalEntity/CompanyID with schemeID', () => {
    for (const profile of ['peppol', 'xrechnung', 'en16931'] as const) {
      const x = parseXml(toUbl(smallBusinessWithSellerIdentifier(), { profile }));
      const supplier = x.all('cac:AccountingSupplierParty')[0]!;
      const pid = supplier.getElementsByTagName('cac:PartyIdentification')[0]!.getElementsByTagName('cbc:ID')[0]!;
      expect([pid.getAttribute('schemeID'), pid.textContent]).toEqual(['0088', '4000001000005']);
      const unschemed = parseXml(toUbl(smallBusinessWithUnschemedIdentifier(), { profile })).all('cac:PartyIdentification')[0]!;
      expect(unschemed.getElementsByTagName('cbc:ID')[0]!.getAttribute('schemeID')).toBeNull();
      const legal = parseXml(toUbl(smallBusinessWithRegistration(), { profile })).all('cac:PartyLegalEntity')[0]!;
      const company = legal.getElementsByTagName('cbc:CompanyID')[0]!;
      expect([company.getAttribute('schemeID'), company.textContent]).toEqual(['0106', '12345678']);
    }
  });

  it.each([
    ['Norwegian', norwegianBuyerExport, 'NO987654325MVA', ['NO', '987654325MVA']],
    ['Swiss', exportOutsideEu, 'CHE123456789MWST', ['CH', 'CHE123456789MWST']],
    ['UK', ukBuyerExport, 'GB980780684', ['GB', '980780684']],
  ] as const)(
    '%s buyer: its tax number is BT-48 in CII and UBL, IdFiscaleIVA in FatturaPA, the foreign tax id in Facturae',
    (_n, build, vatId, [paese, codice]) => {
      const cii = parseXml(toCii(build())).all('ram:BuyerTradeParty')[0]!;
      const reg = Array.from(cii.getElementsByTagName('ram:SpecifiedTaxRegistration')).map((r) => r.getElementsByTagName('ram:ID')[0]!);
      expect(reg.map((e) => [e.getAttribute('schemeID'), e.textContent])).toEqual([['VA', vatId]]);
      const ubl = parseXml(toUbl(build(), { profile: 'peppol' })).all('cac:AccountingCustomerParty')[0]!;
      const scheme = ubl.getElementsByTagName('cac:PartyTaxScheme')[0]!;
      expect(scheme.getElementsByTagName('cbc:CompanyID')[0]!.textContent).toBe(vatId);
      expect(scheme.getElementsByTagName('cbc:ID')[0]!.textContent).toBe('VAT');
      const fpa = parseXml(toFatturaPA(build())).all('CessionarioCommittente')[0]!;
      expect([fpa.getElementsByTagName('IdPaese')[0]!.textContent, fpa.getElementsByTagName('IdCodice')[0]!.textContent]).toEqual([
        paese,
        codice,
      ]);
      const fae = parseXml(toFacturae(build())).all('BuyerParty')[0]!;
      expect(fae.getElementsByTagName('TaxIdentificationNumber')[0]!.textContent).toBe(vatId);
      expect(fae.getElementsByTagName('ResidenceTypeCode')[0]!.textContent).toBe('E');
    },
  );
});
