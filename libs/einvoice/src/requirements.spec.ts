import {
  fixtureScenarios,
  b2cInvoice,
  domesticMixedRates,
  intraCommunityGoods,
  publicSectorBuyer,
  reverseChargeServices,
  italianDomestic,
  exemptInvoice,
  smallBusinessWithRegistration,
  smallBusinessWithSellerIdentifier,
  smallBusinessWithUnschemedIdentifier,
} from './fixtures';
import { einvoiceFormats } from './formats';
import type { EInvoice } from './model';
import { requirementsFor } from './requirements';
import { invoiceTotals } from './totals';

const rules = (format: Parameters<typeof requirementsFor>[0], inv: EInvoice) =>
  requirementsFor(format, inv).map((r) => `${r.rule} ${r.field}`);

describe('requirementsFor', () => {
  it('finds nothing missing in the fixtures for the formats they target', () => {
    for (const s of fixtureScenarios) {
      for (const f of s.formats) expect([s.name, f, requirementsFor(f, s.build())]).toEqual([s.name, f, []]);
    }
  });

  it('explains why excluded scenario/format pairs cannot be written', () => {
    expect(rules('peppol-ubl', b2cInvoice())).toEqual(['PEPPOL-EN16931-CL008 buyer.electronicAddress.scheme']);
    expect(rules('facturae', b2cInvoice())).toEqual(['Facturae:TaxIdentificationNumber buyer.vatId']);
    expect(rules('facturae', publicSectorBuyer())).toEqual(['Facturae:TaxIdentificationNumber buyer.vatId']);
  });

  it('reports the Leitweg-ID / buyer reference, contacts and endpoints for XRechnung', () => {
    const inv = publicSectorBuyer();
    delete inv.buyerReference;
    delete inv.seller.contact;
    delete inv.buyer.electronicAddress;
    expect(rules('xrechnung-ubl', inv)).toEqual([
      'BR-DE-15 buyerReference',
      'BR-DE-05 seller.contact.name',
      'BR-DE-06 seller.contact.phone',
      'BR-DE-07 seller.contact.email',
      'PEPPOL-EN16931-R010 buyer.electronicAddress',
    ]);
    // the same invoice is fine as Factur-X, which needs none of these
    expect(rules('cii-en16931', inv)).toEqual([]);
  });

  it('needs a seller VAT ID or register entry in EN 16931 formats: a tax number is not enough (BR-CO-26)', () => {
    const taxNumberOnly = exemptInvoice();
    delete taxNumberOnly.seller.vatId;
    delete taxNumberOnly.seller.registrationId;
    for (const f of ['cii-en16931', 'xrechnung-cii', 'xrechnung-ubl', 'peppol-ubl', 'ubl-en16931'] as const)
      expect([f, rules(f, taxNumberOnly)]).toEqual([f, expect.arrayContaining(['BR-CO-26 seller.vatId'])]);
    expect(rules('fatturapa', taxNumberOnly)).not.toContain('BR-CO-26 seller.vatId');
    const registered = exemptInvoice();
    delete registered.seller.vatId;
    expect(rules('cii-en16931', registered)).toEqual([]);
    expect(rules('xrechnung-ubl', { ...registered, buyerReference: '04011000-12345-34' })).not.toContain('BR-CO-26 seller.vatId');
  });

  it('a Kleinunternehmer with only a tax number is identified by its seller identifier (BT-29) or registration (BT-30)', () => {
    for (const build of [smallBusinessWithSellerIdentifier, smallBusinessWithUnschemedIdentifier, smallBusinessWithRegistration])
      for (const f of ['cii-en16931', 'xrechnung-cii', 'xrechnung-ubl', 'peppol-ubl', 'ubl-en16931'] as const)
        expect([build.name, f, rules(f, build())]).toEqual([build.name, f, []]);
    const none = smallBusinessWithSellerIdentifier();
    delete none.seller.identifier;
    expect(requirementsFor('cii-en16931', none)).toEqual([
      {
        field: 'seller.vatId',
        rule: 'BR-CO-26',
        message: expect.stringContaining('a seller identifier (BT-29, e.g. a GLN) or a legal registration identifier (BT-30'),
      },
    ]);
    none.seller.identifier = { value: '  ' };
    expect(rules('cii-en16931', none)).toEqual(['BR-CO-26 seller.vatId']);
  });

  it('reports missing payment data for XRechnung and the IBAN for SEPA credit transfer', () => {
    const inv = domesticMixedRates();
    delete inv.payment;
    expect(rules('xrechnung-cii', inv)).toEqual(['BR-DE-01 payment']);
    const sepa = domesticMixedRates();
    delete sepa.payment!.iban;
    expect(rules('cii-en16931', sepa)).toEqual(['BR-61 payment.iban']);
    const noPayment = domesticMixedRates();
    noPayment.payment = { meansCode: '1' };
    expect(rules('xrechnung-ubl', noPayment)).toEqual([]);
  });

  it('reports VAT IDs for reverse charge and intra-community supply', () => {
    const ae = reverseChargeServices();
    delete ae.buyer.vatId;
    expect(rules('ubl-en16931', ae)).toEqual(['BR-AE-02 buyer.vatId']);
    const k = intraCommunityGoods();
    delete k.seller.vatId;
    delete k.buyer.vatId;
    delete k.deliveryDate;
    expect(rules('cii-en16931', k)).toEqual(['BR-IC-02 seller.vatId', 'BR-IC-02 buyer.vatId', 'BR-IC-11 deliveryDate']);
  });

  it('reports the seller tax id for standard-rated lines', () => {
    const inv = domesticMixedRates();
    delete inv.seller.vatId;
    delete inv.seller.taxNumber;
    expect(rules('cii-en16931', inv)).toEqual(['BR-S-02 seller.vatId']);
    expect(rules('xrechnung-cii', inv)).toEqual(['BR-S-02 seller.vatId', 'BR-DE-16 seller.vatId']);
  });

  it('reports an empty invoice, missing parties and line fields in every format', () => {
    const inv = domesticMixedRates();
    inv.lines = [];
    inv.buyer = { name: '', address: { line1: '', city: '', countryCode: '' } };
    for (const f of einvoiceFormats) {
      const r = rules(f, inv);
      expect(r).toEqual(
        expect.arrayContaining(['BR-16 lines', 'BR-07 buyer.name', 'BR-10 buyer.address', 'BR-11 buyer.address.countryCode']),
      );
    }
    const bad = domesticMixedRates();
    bad.lines[1] = { ...bad.lines[1]!, unitCode: '', name: '' };
    expect(rules('ubl-en16931', bad)).toEqual(['BR-23 lines[1].unitCode', 'BR-25 lines[1].name']);
  });

  it('reports arithmetic input errors', () => {
    const inv = domesticMixedRates();
    inv.lines[0]!.unitPrice = '-5';
    inv.lines[1]!.discount = { type: 'PERCENTAGE', value: '120' };
    expect(rules('cii-en16931', inv)).toEqual(['BR-27 lines[0].unitPrice']);
  });

  it('reports malformed dates and an inverted period', () => {
    const inv = domesticMixedRates();
    inv.issueDate = '02.11.2026';
    inv.dueDate = '2026-02-30';
    inv.period = { start: '2026-10-31', end: '2026-10-01' };
    expect(rules('cii-en16931', inv)).toEqual(['date-format issueDate', 'date-format dueDate', 'BR-29 period.end']);
  });

  it('needs a due date or payment terms while something is due (BR-CO-25)', () => {
    const inv = domesticMixedRates();
    delete inv.dueDate;
    delete inv.paymentTerms;
    expect(rules('cii-en16931', inv)).toEqual(['BR-CO-25 dueDate']);
    inv.prepaidAmount = invoiceTotals(inv).taxInclusiveTotal;
    expect(rules('cii-en16931', inv)).toEqual([]);
  });

  it('reports a credit note without preceding invoice', () => {
    const inv = domesticMixedRates();
    inv.typeCode = '381';
    expect(rules('peppol-ubl', inv)).toEqual(['BG-3 precedingInvoice']);
  });

  it('forbids VAT IDs and mixing with category O', () => {
    const inv = domesticMixedRates();
    inv.lines[0]!.vat = { category: 'O', rate: '0', treatment: 'outside_scope' };
    expect(rules('ubl-en16931', inv)).toEqual(['BR-O-02 seller.vatId', 'BR-O-11 lines']);
  });

  it('reports Peppol routing data', () => {
    const inv = domesticMixedRates();
    delete inv.buyerReference;
    delete inv.seller.electronicAddress;
    // a domestic German invoice: Peppol's DE-R-015 asks for the buyer reference as well
    expect(rules('peppol-ubl', inv)).toEqual([
      'PEPPOL-EN16931-R003 buyerReference',
      'PEPPOL-EN16931-R020 seller.electronicAddress',
      'DE-R-015 buyerReference',
    ]);
  });

  it("reports Peppol's German rules only when seller and buyer are both in Germany", () => {
    const inv = domesticMixedRates();
    delete inv.seller.contact?.phone;
    expect(rules('peppol-ubl', inv)).toContain('DE-R-006 seller.contact.phone');
    inv.buyer.address = { ...inv.buyer.address, countryCode: 'AT' };
    expect(rules('peppol-ubl', inv).filter((r) => r.startsWith('DE-R-'))).toEqual([]);
  });

  it('reports FatturaPA routing and identification for Italian buyers', () => {
    const inv = italianDomestic();
    delete inv.buyer.vatId;
    delete inv.buyer.sdiCode;
    inv.buyer.address.postalCode = '1234';
    expect(rules('fatturapa', inv)).toEqual([
      'FatturaPA:CessionarioCommittente/CodiceFiscale buyer.fiscalCode',
      'FatturaPA:CodiceDestinatario buyer.sdiCode',
      'FatturaPA:CAP buyer.address.postalCode',
    ]);
    const wrong = italianDomestic();
    wrong.buyer.sdiCode = 'abc';
    expect(rules('fatturapa', wrong)).toEqual(['FatturaPA:CodiceDestinatario buyer.sdiCode']);
  });

  it('gives messages for every entry', () => {
    const inv = domesticMixedRates();
    inv.lines = [];
    for (const r of requirementsFor('xrechnung-ubl', inv)) expect(r.message.length).toBeGreaterThan(10);
  });
});
