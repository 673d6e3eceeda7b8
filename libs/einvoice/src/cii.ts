import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import type { EInvoice, Party, PostalAddress } from './model';
import { exemptionFor } from './tax-treatments';
import { effectiveDeliverTo, invoiceTotals } from './totals';
import { plain, rate, toCiiDate } from './xml-util';

export type CiiProfile = 'en16931' | 'xrechnung';

const NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

export const CII_GUIDELINE: Record<CiiProfile, string> = {
  en16931: 'urn:cen.eu:en16931:2017',
  xrechnung: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
};
const PEPPOL_BILLING_PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

function dateTime(parent: XMLBuilder, name: string, date: string, type: 'udt' | 'qdt' = 'udt'): void {
  parent.ele(`ram:${name}`).ele(`${type}:DateTimeString`, { format: '102' }).txt(toCiiDate(date));
}

function address(parent: XMLBuilder, a: PostalAddress): void {
  // CII order: PostcodeCode, LineOne, LineTwo, LineThree, CityName, CountryID, CountrySubDivisionName
  const el = parent.ele('ram:PostalTradeAddress');
  if (a.postalCode) el.ele('ram:PostcodeCode').txt(a.postalCode);
  el.ele('ram:LineOne').txt(a.line1);
  if (a.line2) el.ele('ram:LineTwo').txt(a.line2);
  el.ele('ram:CityName').txt(a.city);
  el.ele('ram:CountryID').txt(a.countryCode);
  if (a.subdivision) el.ele('ram:CountrySubDivisionName').txt(a.subdivision);
}

function party(parent: XMLBuilder, name: string, p: Party, role: 'seller' | 'buyer'): void {
  const el = parent.ele(`ram:${name}`);
  // BT-29 / BT-46: ram:ID without a scheme, ram:GlobalID with its ISO 6523 ICD scheme (BT-29-1)
  if (p.identifier?.scheme) el.ele('ram:GlobalID', { schemeID: p.identifier.scheme }).txt(p.identifier.value);
  else if (p.identifier) el.ele('ram:ID').txt(p.identifier.value);
  el.ele('ram:Name').txt(p.name);
  if (p.registrationId)
    el.ele('ram:SpecifiedLegalOrganization')
      .ele('ram:ID', p.registrationScheme ? { schemeID: p.registrationScheme } : {})
      .txt(p.registrationId);
  if (p.contact && (p.contact.name || p.contact.phone || p.contact.email)) {
    const c = el.ele('ram:DefinedTradeContact');
    if (p.contact.name) c.ele('ram:PersonName').txt(p.contact.name);
    if (p.contact.phone) c.ele('ram:TelephoneUniversalCommunication').ele('ram:CompleteNumber').txt(p.contact.phone);
    if (p.contact.email) c.ele('ram:EmailURIUniversalCommunication').ele('ram:URIID').txt(p.contact.email);
  }
  address(el, p.address);
  if (p.electronicAddress) {
    el.ele('ram:URIUniversalCommunication').ele('ram:URIID', { schemeID: p.electronicAddress.scheme }).txt(p.electronicAddress.value);
  }
  if (p.vatId) el.ele('ram:SpecifiedTaxRegistration').ele('ram:ID', { schemeID: 'VA' }).txt(p.vatId);
  // BT-32 (seller tax number) exists only for the seller; the buyer has no "FC" registration in EN 16931
  if (role === 'seller' && p.taxNumber) el.ele('ram:SpecifiedTaxRegistration').ele('ram:ID', { schemeID: 'FC' }).txt(p.taxNumber);
}

/**
 * UN/CEFACT CII D16B invoice: Factur-X / ZUGFeRD EN 16931 profile (`en16931`) or XRechnung 3.0 CII
 * (`xrechnung`). Element order follows the D16B schema; totals come from computeTotals.
 */
export function toCii(invoice: EInvoice, options: { profile: CiiProfile } = { profile: 'en16931' }): string {
  if (!Object.hasOwn(CII_GUIDELINE, options.profile)) throw new RangeError(`unknown CII profile ${JSON.stringify(options.profile)}`);
  const totals = invoiceTotals(invoice);
  const cur = invoice.currency;
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(NS.rsm, 'rsm:CrossIndustryInvoice', {
    'xmlns:ram': NS.ram,
    'xmlns:qdt': NS.qdt,
    'xmlns:udt': NS.udt,
  });

  const ctx = root.ele('rsm:ExchangedDocumentContext');
  if (options.profile === 'xrechnung')
    ctx.ele('ram:BusinessProcessSpecifiedDocumentContextParameter').ele('ram:ID').txt(PEPPOL_BILLING_PROCESS);
  ctx.ele('ram:GuidelineSpecifiedDocumentContextParameter').ele('ram:ID').txt(CII_GUIDELINE[options.profile]);

  const doc = root.ele('rsm:ExchangedDocument');
  doc.ele('ram:ID').txt(invoice.number);
  doc.ele('ram:TypeCode').txt(invoice.typeCode);
  dateTime(doc, 'IssueDateTime', invoice.issueDate);
  for (const note of invoice.notes ?? []) doc.ele('ram:IncludedNote').ele('ram:Content').txt(note);

  const tx = root.ele('rsm:SupplyChainTradeTransaction');
  invoice.lines.forEach((line, i) => {
    const lt = totals.lines[i]!;
    const item = tx.ele('ram:IncludedSupplyChainTradeLineItem');
    // BT-126: the line's position in this document (1..n), not the company-wide position id
    item
      .ele('ram:AssociatedDocumentLineDocument')
      .ele('ram:LineID')
      .txt(String(i + 1));
    const product = item.ele('ram:SpecifiedTradeProduct');
    product.ele('ram:Name').txt(line.name);
    if (line.description) product.ele('ram:Description').txt(line.description);
    item.ele('ram:SpecifiedLineTradeAgreement').ele('ram:NetPriceProductTradePrice').ele('ram:ChargeAmount').txt(plain(line.unitPrice));
    item.ele('ram:SpecifiedLineTradeDelivery').ele('ram:BilledQuantity', { unitCode: line.unitCode }).txt(plain(line.quantity));
    const settle = item.ele('ram:SpecifiedLineTradeSettlement');
    const tax = settle.ele('ram:ApplicableTradeTax');
    tax.ele('ram:TypeCode').txt('VAT');
    tax.ele('ram:CategoryCode').txt(line.vat.category);
    // BR-O-05: lines "not subject to VAT" carry no rate
    if (line.vat.category !== 'O') tax.ele('ram:RateApplicablePercent').txt(rate(line.vat.rate));
    if (line.period) {
      const p = settle.ele('ram:BillingSpecifiedPeriod');
      dateTime(p, 'StartDateTime', line.period.start);
      dateTime(p, 'EndDateTime', line.period.end);
    }
    if (line.discount) {
      const ac = settle.ele('ram:SpecifiedTradeAllowanceCharge');
      ac.ele('ram:ChargeIndicator').ele('udt:Indicator').txt('false');
      if (lt.allowancePercent !== undefined) {
        ac.ele('ram:CalculationPercent').txt(lt.allowancePercent);
        ac.ele('ram:BasisAmount').txt(lt.grossRounded);
      }
      ac.ele('ram:ActualAmount').txt(lt.allowance);
      ac.ele('ram:ReasonCode').txt('95'); // UNCL5189 95 = Discount (BR-42 wants a reason or a code)
      ac.ele('ram:Reason').txt(line.discount.reason ?? 'Discount');
    }
    settle.ele('ram:SpecifiedTradeSettlementLineMonetarySummation').ele('ram:LineTotalAmount').txt(lt.net);
  });

  const agreement = tx.ele('ram:ApplicableHeaderTradeAgreement');
  if (invoice.buyerReference) agreement.ele('ram:BuyerReference').txt(invoice.buyerReference);
  party(agreement, 'SellerTradeParty', invoice.seller, 'seller');
  party(agreement, 'BuyerTradeParty', invoice.buyer, 'buyer');
  if (invoice.orderReference) agreement.ele('ram:BuyerOrderReferencedDocument').ele('ram:IssuerAssignedID').txt(invoice.orderReference);

  const delivery = tx.ele('ram:ApplicableHeaderTradeDelivery');
  const deliverTo = effectiveDeliverTo(invoice);
  if (deliverTo) {
    const shipTo = delivery.ele('ram:ShipToTradeParty');
    if (deliverTo.name) shipTo.ele('ram:Name').txt(deliverTo.name);
    address(shipTo, deliverTo.address);
  }
  if (invoice.deliveryDate) {
    dateTime(delivery.ele('ram:ActualDeliverySupplyChainEvent'), 'OccurrenceDateTime', invoice.deliveryDate);
  }

  const settlement = tx.ele('ram:ApplicableHeaderTradeSettlement');
  if (invoice.payment?.remittanceInfo) settlement.ele('ram:PaymentReference').txt(invoice.payment.remittanceInfo);
  settlement.ele('ram:InvoiceCurrencyCode').txt(cur);
  if (invoice.payment) {
    const pm = settlement.ele('ram:SpecifiedTradeSettlementPaymentMeans');
    pm.ele('ram:TypeCode').txt(invoice.payment.meansCode);
    if (invoice.payment.iban) {
      const acct = pm.ele('ram:PayeePartyCreditorFinancialAccount');
      acct.ele('ram:IBANID').txt(invoice.payment.iban);
      if (invoice.payment.accountName) acct.ele('ram:AccountName').txt(invoice.payment.accountName);
    }
    if (invoice.payment.bic) pm.ele('ram:PayeeSpecifiedCreditorFinancialInstitution').ele('ram:BICID').txt(invoice.payment.bic);
  }
  for (const v of totals.vatBreakdown) {
    const category = v.category as EInvoice['lines'][number]['vat']['category'];
    const ex = exemptionFor(category, invoice);
    const t = settlement.ele('ram:ApplicableTradeTax');
    t.ele('ram:CalculatedAmount').txt(v.taxAmount);
    t.ele('ram:TypeCode').txt('VAT');
    if (ex?.reason) t.ele('ram:ExemptionReason').txt(ex.reason);
    t.ele('ram:BasisAmount').txt(v.taxableAmount);
    t.ele('ram:CategoryCode').txt(v.category);
    if (ex?.code) t.ele('ram:ExemptionReasonCode').txt(ex.code);
    // BT-119 also for "not subject" (0): XRechnung requires it (BR-DE-14); only the line's rate is left out (BR-O-05)
    t.ele('ram:RateApplicablePercent').txt(category === 'O' ? '0' : v.rate);
  }
  if (invoice.period) {
    const p = settlement.ele('ram:BillingSpecifiedPeriod');
    dateTime(p, 'StartDateTime', invoice.period.start);
    dateTime(p, 'EndDateTime', invoice.period.end);
  }
  if (invoice.paymentTerms || invoice.dueDate) {
    const terms = settlement.ele('ram:SpecifiedTradePaymentTerms');
    if (invoice.paymentTerms) terms.ele('ram:Description').txt(invoice.paymentTerms);
    if (invoice.dueDate) dateTime(terms, 'DueDateDateTime', invoice.dueDate);
  }
  const sum = settlement.ele('ram:SpecifiedTradeSettlementHeaderMonetarySummation');
  sum.ele('ram:LineTotalAmount').txt(totals.lineNetTotal);
  sum.ele('ram:TaxBasisTotalAmount').txt(totals.taxExclusiveTotal);
  sum.ele('ram:TaxTotalAmount', { currencyID: cur }).txt(totals.vatTotal);
  sum.ele('ram:GrandTotalAmount').txt(totals.taxInclusiveTotal);
  if (invoice.prepaidAmount !== undefined) sum.ele('ram:TotalPrepaidAmount').txt(totals.prepaidAmount);
  sum.ele('ram:DuePayableAmount').txt(totals.amountDue);
  if (invoice.precedingInvoice) {
    const ref = settlement.ele('ram:InvoiceReferencedDocument');
    ref.ele('ram:IssuerAssignedID').txt(invoice.precedingInvoice.number);
    if (invoice.precedingInvoice.issueDate) dateTime(ref, 'FormattedIssueDateTime', invoice.precedingInvoice.issueDate, 'qdt');
  }
  return root.end({ prettyPrint: true });
}
