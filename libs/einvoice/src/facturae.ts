import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { Dec, computeTotals, formatDecimal } from '@inv/money';
import type { EInvoice, InvoiceLine, Party, VatCategoryCode } from './model';
import { isEuCountry, toAlpha3 } from './countries';
import { exemptionFor } from './tax-treatments';

const NS_FE = 'http://www.facturae.gob.es/formato/Versiones/Facturaev3_2_2.xml';
const NS_DS = 'http://www.w3.org/2000/09/xmldsig#';

/** Facturae UnitOfMeasure codes for the UN/ECE Rec 20 codes we use; everything else is 05 "Other". */
const UNIT: Record<string, string> = {
  C62: '01',
  H87: '01',
  EA: '01',
  HUR: '02',
  KGM: '03',
  LTR: '04',
  GRM: '21',
  KMT: '22',
  MTR: '25',
  MTQ: '33',
  SEC: '34',
  KWH: '36',
};

const text = (value: string, max: number) => (value.length > max ? value.slice(0, max) : value);
const two = (value: string) => new Dec(value).toFixed(2, Dec.ROUND_HALF_UP);
/** DoubleUpToEightDecimalType: plain decimal, at most 8 decimals. */
const upTo8 = (value: string) => formatDecimal(new Dec(value).toDecimalPlaces(8, Dec.ROUND_HALF_UP));

function taxId(p: Party): string {
  const id = p.vatId ?? p.fiscalCode;
  if (!id) throw new RangeError(`Facturae needs a tax identification (VAT ID or NIF) for ${p.name}`);
  const compact = id.replace(/[\s.-]/g, '').toUpperCase();
  // Spanish residents are identified by their NIF without the "ES" VAT prefix
  return p.address.countryCode === 'ES' && compact.startsWith('ES') ? compact.slice(2) : compact;
}

function residence(p: Party): 'R' | 'U' | 'E' {
  if (p.address.countryCode === 'ES') return 'R';
  return isEuCountry(p.address.countryCode) ? 'U' : 'E';
}

function businessParty(parent: XMLBuilder, name: string, p: Party): void {
  const el = parent.ele(name);
  const individual = !p.vatId && !!p.firstName && !!p.lastName;
  const tid = el.ele('TaxIdentification');
  tid.ele('PersonTypeCode').txt(individual ? 'F' : 'J');
  tid.ele('ResidenceTypeCode').txt(residence(p));
  tid.ele('TaxIdentificationNumber').txt(text(taxId(p), 30));
  const entity = el.ele(individual ? 'Individual' : 'LegalEntity');
  if (individual) {
    entity.ele('Name').txt(text(p.firstName!, 40));
    entity.ele('FirstSurname').txt(text(p.lastName!, 40));
  } else {
    entity.ele('CorporateName').txt(text(p.name, 80));
  }
  const a = p.address;
  const street = [a.line1, a.line2].filter(Boolean).join(', ');
  if (a.countryCode === 'ES') {
    const addr = entity.ele('AddressInSpain');
    addr.ele('Address').txt(text(street, 80));
    addr.ele('PostCode').txt(a.postalCode ?? '');
    addr.ele('Town').txt(text(a.city, 50));
    addr.ele('Province').txt(text(a.subdivision ?? a.city, 20));
    addr.ele('CountryCode').txt('ESP');
  } else {
    const addr = entity.ele('OverseasAddress');
    addr.ele('Address').txt(text(street, 80));
    addr.ele('PostCodeAndTown').txt(text([a.postalCode, a.city].filter(Boolean).join(' '), 50));
    addr.ele('Province').txt(text(a.subdivision ?? a.city, 20));
    addr.ele('CountryCode').txt(toAlpha3(a.countryCode));
  }
  if (p.contact && (p.contact.phone || p.contact.email || p.contact.name)) {
    const c = entity.ele('ContactDetails');
    if (p.contact.phone) c.ele('Telephone').txt(text(p.contact.phone, 15));
    if (p.contact.email) c.ele('ElectronicMail').txt(text(p.contact.email, 60));
    if (p.contact.name) c.ele('ContactPersons').txt(text(p.contact.name, 40));
  }
}

function amount(parent: XMLBuilder, name: string, value: string): void {
  parent.ele(name).ele('TotalAmount').txt(two(value));
}

/**
 * Facturae 3.2.2, one invoice per file (Modality I), issued by the seller (EM), UNSIGNED: FACe and
 * most receivers require a XAdES signature with a qualified certificate, which we do not have (see
 * README). Credit notes (381) become corrective invoices "por diferencias" with negative amounts.
 */
export function toFacturae(invoice: EInvoice): string {
  const isCredit = invoice.typeCode === '381';
  // A rectificativa "by differences" states the correction with negative quantities and amounts.
  const lines: InvoiceLine[] = isCredit
    ? invoice.lines.map((l) => ({ ...l, quantity: new Dec(l.quantity).negated().toFixed() }))
    : invoice.lines;
  const prepaid =
    invoice.prepaidAmount !== undefined
      ? isCredit
        ? new Dec(invoice.prepaidAmount).negated().toFixed()
        : invoice.prepaidAmount
      : undefined;
  const totals = computeTotals({
    lines: lines.map((l) => ({
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      vat: l.vat,
      ...(l.discount ? { discount: l.discount } : {}),
    })),
    ...(prepaid !== undefined ? { prepaidAmount: prepaid } : {}),
  });
  const cur = invoice.currency;

  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(NS_FE, 'fe:Facturae', { 'xmlns:ds': NS_DS });
  const fh = root.ele('FileHeader');
  fh.ele('SchemaVersion').txt('3.2.2');
  fh.ele('Modality').txt('I');
  fh.ele('InvoiceIssuerType').txt('EM');
  const batch = fh.ele('Batch');
  batch.ele('BatchIdentifier').txt(text(`${taxId(invoice.seller)}${invoice.number}`, 70));
  batch.ele('InvoicesCount').txt('1');
  amount(batch, 'TotalInvoicesAmount', totals.taxInclusiveTotal);
  amount(batch, 'TotalOutstandingAmount', totals.amountDue);
  amount(batch, 'TotalExecutableAmount', totals.amountDue);
  batch.ele('InvoiceCurrencyCode').txt(cur);

  const parties = root.ele('Parties');
  businessParty(parties, 'SellerParty', invoice.seller);
  businessParty(parties, 'BuyerParty', invoice.buyer);

  const inv = root.ele('Invoices').ele('Invoice');
  const header = inv.ele('InvoiceHeader');
  header.ele('InvoiceNumber').txt(text(invoice.number, 20));
  header.ele('InvoiceDocumentType').txt('FC'); // complete invoice
  header.ele('InvoiceClass').txt(isCredit ? 'OR' : 'OO');
  if (isCredit) {
    const corr = header.ele('Corrective');
    if (invoice.precedingInvoice) corr.ele('InvoiceNumber').txt(text(invoice.precedingInvoice.number, 20));
    corr.ele('ReasonCode').txt('10');
    corr.ele('ReasonDescription').txt('Detalle Operación');
    const tp = corr.ele('TaxPeriod');
    const refDate = invoice.precedingInvoice?.issueDate ?? invoice.issueDate;
    tp.ele('StartDate').txt(invoice.period?.start ?? refDate);
    tp.ele('EndDate').txt(invoice.period?.end ?? refDate);
    corr.ele('CorrectionMethod').txt('02');
    corr.ele('CorrectionMethodDescription').txt('Rectificación por diferencias');
    if (invoice.precedingInvoice?.issueDate) corr.ele('InvoiceIssueDate').txt(invoice.precedingInvoice.issueDate);
  }
  const issue = inv.ele('InvoiceIssueData');
  issue.ele('IssueDate').txt(invoice.issueDate);
  if (invoice.deliveryDate) issue.ele('OperationDate').txt(invoice.deliveryDate);
  if (invoice.period) {
    const p = issue.ele('InvoicingPeriod');
    p.ele('StartDate').txt(invoice.period.start);
    p.ele('EndDate').txt(invoice.period.end);
  }
  issue.ele('InvoiceCurrencyCode').txt(cur);
  issue.ele('TaxCurrencyCode').txt(cur);
  issue.ele('LanguageName').txt(invoice.language);
  if (invoice.notes?.length) issue.ele('InvoiceDescription').txt(text(invoice.notes.join('\n'), 2500));
  if (invoice.orderReference) issue.ele('ReceiverTransactionReference').txt(text(invoice.orderReference, 20));

  const taxes = inv.ele('TaxesOutputs');
  for (const v of totals.vatBreakdown) {
    const t = taxes.ele('Tax');
    t.ele('TaxTypeCode').txt('01'); // IVA
    t.ele('TaxRate').txt(two(v.rate));
    amount(t, 'TaxableBase', v.taxableAmount);
    amount(t, 'TaxAmount', v.taxAmount);
  }

  const it = inv.ele('InvoiceTotals');
  it.ele('TotalGrossAmount').txt(two(totals.lineNetTotal));
  it.ele('TotalGrossAmountBeforeTaxes').txt(two(totals.taxExclusiveTotal));
  it.ele('TotalTaxOutputs').txt(two(totals.vatTotal));
  it.ele('TotalTaxesWithheld').txt('0.00');
  it.ele('InvoiceTotal').txt(two(totals.taxInclusiveTotal));
  if (prepaid !== undefined) {
    const poa = it.ele('PaymentsOnAccount').ele('PaymentOnAccount');
    poa.ele('PaymentOnAccountDate').txt(invoice.issueDate);
    poa.ele('PaymentOnAccountAmount').txt(two(totals.prepaidAmount));
  }
  it.ele('TotalOutstandingAmount').txt(two(totals.amountDue));
  if (prepaid !== undefined) it.ele('TotalPaymentsOnAccount').txt(two(totals.prepaidAmount));
  it.ele('TotalExecutableAmount').txt(two(totals.amountDue));

  const items = inv.ele('Items');
  lines.forEach((line, i) => {
    const lt = totals.lines[i]!;
    const el = items.ele('InvoiceLine');
    el.ele('ItemDescription').txt(text(line.description ? `${line.name} - ${line.description}` : line.name, 2500));
    el.ele('Quantity').txt(formatDecimal(line.quantity));
    el.ele('UnitOfMeasure').txt(UNIT[line.unitCode] ?? '05');
    el.ele('UnitPriceWithoutTax').txt(upTo8(line.unitPrice));
    el.ele('TotalCost').txt(upTo8(lt.gross));
    if (line.discount) {
      const d = el.ele('DiscountsAndRebates').ele('Discount');
      d.ele('DiscountReason').txt(text(line.discount.reason ?? 'Descuento', 2500));
      if (lt.allowancePercent !== undefined) d.ele('DiscountRate').txt(upTo8(lt.allowancePercent));
      d.ele('DiscountAmount').txt(upTo8(lt.allowance));
    }
    el.ele('GrossAmount').txt(upTo8(lt.net));
    const t = el.ele('TaxesOutputs').ele('Tax');
    t.ele('TaxTypeCode').txt('01');
    t.ele('TaxRate').txt(two(line.vat.rate));
    amount(t, 'TaxableBase', lt.net);
    amount(t, 'TaxAmount', new Dec(lt.net).times(line.vat.rate).dividedBy(100).toFixed(2, Dec.ROUND_HALF_UP));
    if (line.period) {
      const p = el.ele('LineItemPeriod');
      p.ele('StartDate').txt(line.period.start);
      p.ele('EndDate').txt(line.period.end);
    }
  });

  const pay = invoice.payment;
  if (pay && pay.meansCode !== '1' && pay.meansCode !== '97' && !isCredit && new Dec(totals.amountDue).greaterThan(0)) {
    const inst = inv.ele('PaymentDetails').ele('Installment');
    inst.ele('InstallmentDueDate').txt(invoice.dueDate ?? invoice.issueDate);
    inst.ele('InstallmentAmount').txt(two(totals.amountDue));
    inst.ele('PaymentMeans').txt('04'); // credit transfer
    if (pay.iban) {
      const acct = inst.ele('AccountToBeCredited');
      acct.ele('IBAN').txt(pay.iban.replace(/\s/g, ''));
      // Facturae's BICType is exactly 11 characters; an 8-character BIC means the head office "XXX"
      if (pay.bic) acct.ele('BIC').txt(pay.bic.length === 8 ? `${pay.bic}XXX` : pay.bic);
    }
    if (pay.remittanceInfo) inst.ele('PaymentReconciliationReference').txt(text(pay.remittanceInfo, 60));
  }
  const reasons = [
    ...new Set(
      totals.vatBreakdown.map((v) => exemptionFor(v.category as VatCategoryCode, invoice)?.reason).filter((r): r is string => !!r),
    ),
  ];
  if (reasons.length) {
    const ll = inv.ele('LegalLiterals');
    for (const r of reasons) ll.ele('LegalReference').txt(text(r, 250));
  }
  return root.end({ prettyPrint: true });
}
