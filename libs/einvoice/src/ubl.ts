import { create } from 'xmlbuilder2';
import { embeddableAttachments } from './attachments';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import type { EInvoice, Party, PostalAddress, VatCategoryCode } from './model';
import { exemptionFor } from './tax-treatments';
import { effectiveDeliverTo, invoiceTotals } from './totals';
import { plain, rate } from './xml-util';

export type UblProfile = 'peppol' | 'xrechnung' | 'en16931';

const NS = {
  invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  creditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

export const UBL_CUSTOMIZATION: Record<UblProfile, string> = {
  peppol: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
  xrechnung: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
  en16931: 'urn:cen.eu:en16931:2017',
};
const PEPPOL_BILLING_PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

function address(parent: XMLBuilder, name: string, a: PostalAddress): void {
  // UBL order: StreetName, AdditionalStreetName, CityName, PostalZone, CountrySubentity, Country
  const el = parent.ele(`cac:${name}`);
  el.ele('cbc:StreetName').txt(a.line1);
  if (a.line2) el.ele('cbc:AdditionalStreetName').txt(a.line2);
  el.ele('cbc:CityName').txt(a.city);
  if (a.postalCode) el.ele('cbc:PostalZone').txt(a.postalCode);
  if (a.subdivision) el.ele('cbc:CountrySubentity').txt(a.subdivision);
  el.ele('cac:Country').ele('cbc:IdentificationCode').txt(a.countryCode);
}

function party(parent: XMLBuilder, wrapper: string, p: Party, role: 'seller' | 'buyer'): void {
  const el = parent.ele(`cac:${wrapper}`).ele('cac:Party');
  if (p.electronicAddress) el.ele('cbc:EndpointID', { schemeID: p.electronicAddress.scheme }).txt(p.electronicAddress.value);
  // BT-29 / BT-46 with its ISO 6523 ICD scheme (BT-29-1) when it has one
  if (p.identifier)
    el.ele('cac:PartyIdentification')
      .ele('cbc:ID', p.identifier.scheme ? { schemeID: p.identifier.scheme } : {})
      .txt(p.identifier.value);
  address(el, 'PostalAddress', p.address);
  if (p.vatId) {
    const ts = el.ele('cac:PartyTaxScheme');
    ts.ele('cbc:CompanyID').txt(p.vatId);
    ts.ele('cac:TaxScheme').ele('cbc:ID').txt('VAT');
  }
  if (role === 'seller' && p.taxNumber) {
    // BT-32: a PartyTaxScheme whose scheme is not VAT ("FC" as in the XRechnung test suite)
    const ts = el.ele('cac:PartyTaxScheme');
    ts.ele('cbc:CompanyID').txt(p.taxNumber);
    ts.ele('cac:TaxScheme').ele('cbc:ID').txt('FC');
  }
  const legal = el.ele('cac:PartyLegalEntity');
  legal.ele('cbc:RegistrationName').txt(p.name);
  if (p.registrationId) legal.ele('cbc:CompanyID', p.registrationScheme ? { schemeID: p.registrationScheme } : {}).txt(p.registrationId);
  if (p.contact && (p.contact.name || p.contact.phone || p.contact.email)) {
    const c = el.ele('cac:Contact');
    if (p.contact.name) c.ele('cbc:Name').txt(p.contact.name);
    if (p.contact.phone) c.ele('cbc:Telephone').txt(p.contact.phone);
    if (p.contact.email) c.ele('cbc:ElectronicMail').txt(p.contact.email);
  }
}

function taxCategory(
  parent: XMLBuilder,
  name: string,
  category: VatCategoryCode,
  vatRate: string,
  exemption?: { reason?: string; code?: string },
): void {
  const el = parent.ele(`cac:${name}`);
  el.ele('cbc:ID').txt(category);
  // BR-O-05: no item rate (BT-152) for "not subject"; the breakdown's rate (BT-119) is 0, which XRechnung (BR-DE-14)
  // and Peppol's German rules (DE-R-014) require and EN 16931 allows
  if (category !== 'O') el.ele('cbc:Percent').txt(rate(vatRate));
  else if (name === 'TaxCategory') el.ele('cbc:Percent').txt('0');
  if (exemption?.code) el.ele('cbc:TaxExemptionReasonCode').txt(exemption.code);
  if (exemption?.reason) el.ele('cbc:TaxExemptionReason').txt(exemption.reason);
  el.ele('cac:TaxScheme').ele('cbc:ID').txt('VAT');
}

/**
 * UBL 2.1 invoice (typeCode 380) or credit note (381, `CreditNote` root with BillingReference) for
 * Peppol BIS Billing 3.0, XRechnung 3.0 UBL or plain EN 16931. Totals come from computeTotals.
 */
export function toUbl(invoice: EInvoice, options: { profile: UblProfile } = { profile: 'peppol' }): string {
  if (!Object.hasOwn(UBL_CUSTOMIZATION, options.profile)) throw new RangeError(`unknown UBL profile ${JSON.stringify(options.profile)}`);
  const totals = invoiceTotals(invoice);
  const cur = invoice.currency;
  const isCredit = invoice.typeCode === '381';
  const amount = (parent: XMLBuilder, name: string, value: string) => parent.ele(`cbc:${name}`, { currencyID: cur }).txt(value);

  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(
    isCredit ? NS.creditNote : NS.invoice,
    isCredit ? 'CreditNote' : 'Invoice',
    { 'xmlns:cac': NS.cac, 'xmlns:cbc': NS.cbc },
  );
  root.ele('cbc:CustomizationID').txt(UBL_CUSTOMIZATION[options.profile]);
  if (options.profile !== 'en16931') root.ele('cbc:ProfileID').txt(PEPPOL_BILLING_PROCESS);
  root.ele('cbc:ID').txt(invoice.number);
  root.ele('cbc:IssueDate').txt(invoice.issueDate);
  // The UBL 2.1 CreditNote has no header DueDate; BT-9 goes to PaymentMeans/PaymentDueDate there.
  if (!isCredit && invoice.dueDate) root.ele('cbc:DueDate').txt(invoice.dueDate);
  root.ele(isCredit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode').txt(invoice.typeCode);
  // Peppol allows one document note unless seller and buyer are both German (PEPPOL-EN16931-R002): one note then
  const bothGerman = invoice.seller.address.countryCode === 'DE' && invoice.buyer.address.countryCode === 'DE';
  const notes = options.profile === 'peppol' && !bothGerman && invoice.notes?.length ? [invoice.notes.join('\n')] : (invoice.notes ?? []);
  for (const note of notes) root.ele('cbc:Note').txt(note);
  root.ele('cbc:DocumentCurrencyCode').txt(cur);
  if (invoice.buyerReference) root.ele('cbc:BuyerReference').txt(invoice.buyerReference);
  if (invoice.period) {
    const p = root.ele('cac:InvoicePeriod');
    p.ele('cbc:StartDate').txt(invoice.period.start);
    p.ele('cbc:EndDate').txt(invoice.period.end);
  }
  if (invoice.orderReference) root.ele('cac:OrderReference').ele('cbc:ID').txt(invoice.orderReference);
  if (invoice.precedingInvoice) {
    const ref = root.ele('cac:BillingReference').ele('cac:InvoiceDocumentReference');
    ref.ele('cbc:ID').txt(invoice.precedingInvoice.number);
    if (invoice.precedingInvoice.issueDate) ref.ele('cbc:IssueDate').txt(invoice.precedingInvoice.issueDate);
  }
  for (const a of embeddableAttachments(options.profile === 'xrechnung' ? 'xrechnung-ubl' : 'peppol-ubl', invoice.attachments ?? [])
    .embedded) {
    const ref = root.ele('cac:AdditionalDocumentReference'); // BG-24
    ref.ele('cbc:ID').txt(a.id);
    if (a.description) ref.ele('cbc:DocumentDescription').txt(a.description);
    ref
      .ele('cac:Attachment')
      .ele('cbc:EmbeddedDocumentBinaryObject', { mimeCode: a.mimeCode, filename: a.filename })
      .txt(a.content.toString('base64'));
  }
  party(root, 'AccountingSupplierParty', invoice.seller, 'seller');
  party(root, 'AccountingCustomerParty', invoice.buyer, 'buyer');

  const deliverTo = effectiveDeliverTo(invoice);
  if (invoice.deliveryDate || deliverTo) {
    const d = root.ele('cac:Delivery');
    if (invoice.deliveryDate) d.ele('cbc:ActualDeliveryDate').txt(invoice.deliveryDate);
    if (deliverTo) {
      address(d.ele('cac:DeliveryLocation'), 'Address', deliverTo.address);
      if (deliverTo.name) d.ele('cac:DeliveryParty').ele('cac:PartyName').ele('cbc:Name').txt(deliverTo.name);
    }
  }

  if (invoice.payment) {
    const pm = root.ele('cac:PaymentMeans');
    pm.ele('cbc:PaymentMeansCode').txt(invoice.payment.meansCode);
    if (isCredit && invoice.dueDate) pm.ele('cbc:PaymentDueDate').txt(invoice.dueDate);
    if (invoice.payment.remittanceInfo) pm.ele('cbc:PaymentID').txt(invoice.payment.remittanceInfo);
    if (invoice.payment.iban) {
      const acct = pm.ele('cac:PayeeFinancialAccount');
      acct.ele('cbc:ID').txt(invoice.payment.iban);
      if (invoice.payment.accountName) acct.ele('cbc:Name').txt(invoice.payment.accountName);
      if (invoice.payment.bic) acct.ele('cac:FinancialInstitutionBranch').ele('cbc:ID').txt(invoice.payment.bic);
    }
  }
  if (invoice.paymentTerms) root.ele('cac:PaymentTerms').ele('cbc:Note').txt(invoice.paymentTerms);

  const taxTotal = root.ele('cac:TaxTotal');
  amount(taxTotal, 'TaxAmount', totals.vatTotal);
  for (const v of totals.vatBreakdown) {
    const category = v.category as VatCategoryCode;
    const sub = taxTotal.ele('cac:TaxSubtotal');
    amount(sub, 'TaxableAmount', v.taxableAmount);
    amount(sub, 'TaxAmount', v.taxAmount);
    taxCategory(sub, 'TaxCategory', category, v.rate, exemptionFor(category, invoice));
  }

  const sum = root.ele('cac:LegalMonetaryTotal');
  amount(sum, 'LineExtensionAmount', totals.lineNetTotal);
  amount(sum, 'TaxExclusiveAmount', totals.taxExclusiveTotal);
  amount(sum, 'TaxInclusiveAmount', totals.taxInclusiveTotal);
  if (invoice.prepaidAmount !== undefined) amount(sum, 'PrepaidAmount', totals.prepaidAmount);
  amount(sum, 'PayableAmount', totals.amountDue);

  invoice.lines.forEach((line, i) => {
    const lt = totals.lines[i]!;
    const el = root.ele(isCredit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine');
    // BT-126: the line's position in this document (1..n), not the company-wide position id
    el.ele('cbc:ID').txt(String(i + 1));
    el.ele(isCredit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', { unitCode: line.unitCode }).txt(plain(line.quantity));
    amount(el, 'LineExtensionAmount', lt.net);
    if (line.period) {
      const p = el.ele('cac:InvoicePeriod');
      p.ele('cbc:StartDate').txt(line.period.start);
      p.ele('cbc:EndDate').txt(line.period.end);
    }
    if (line.discount) {
      const ac = el.ele('cac:AllowanceCharge');
      ac.ele('cbc:ChargeIndicator').txt('false');
      ac.ele('cbc:AllowanceChargeReasonCode').txt('95'); // UNCL5189 95 = Discount
      ac.ele('cbc:AllowanceChargeReason').txt(line.discount.reason ?? 'Discount');
      if (lt.allowancePercent !== undefined) ac.ele('cbc:MultiplierFactorNumeric').txt(lt.allowancePercent);
      amount(ac, 'Amount', lt.allowance);
      if (lt.allowancePercent !== undefined) amount(ac, 'BaseAmount', lt.grossRounded);
    }
    const item = el.ele('cac:Item');
    if (line.description) item.ele('cbc:Description').txt(line.description);
    item.ele('cbc:Name').txt(line.name);
    taxCategory(item, 'ClassifiedTaxCategory', line.vat.category, line.vat.rate);
    amount(el.ele('cac:Price'), 'PriceAmount', plain(line.unitPrice));
  });
  return root.end({ prettyPrint: true });
}
