import type { InboundContent, InboundLine, InboundParty } from '@inv/contracts';
import { xpathNodes, xpathString, type XmlDoc } from './validator';

/**
 * Reads a UBL or CII e-invoice into our JSON vocabulary by XPath over the parsed document (the tree the
 * validation ran on). Element names are matched by local name (`*:Name`): the syntax is already known
 * from the root's namespace, and the XSD check reports elements in a wrong namespace.
 */

/** Bound of every string read (a text node may be long; our JSON stays bounded). */
const MAX_TEXT = 2000;

const opt = (ctx: unknown, xpath: string): string | undefined => {
  const v = xpathString(xpath, ctx).trim();
  return v ? v.slice(0, MAX_TEXT) : undefined;
};
const all = (ctx: unknown, xpath: string): string[] =>
  xpathNodes(`(${xpath})!string()`, ctx)
    .map((v) => String(v).trim().slice(0, MAX_TEXT))
    .filter(Boolean);
const compact = <T extends Record<string, unknown>>(o: T): T | undefined =>
  Object.values(o).some((v) => v !== undefined)
    ? (Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T)
    : undefined;
/** CII dates (format 102, YYYYMMDD) as ISO dates; other forms are kept as given. */
const ciiDate = (v: string | undefined) => (v && /^\d{8}$/.test(v) ? `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}` : v);

/** BT-6 when it names another currency than the document's (BT-5): the one BT-111 is stated in. */
const otherCurrency = (tax: string | undefined, currency: string | undefined) => (tax && tax !== currency ? tax : undefined);

export function readContent(doc: XmlDoc, syntax: 'ubl' | 'cii'): InboundContent {
  return syntax === 'ubl' ? readUbl(doc) : readCii(doc);
}

function ublParty(p: unknown): InboundParty {
  const endpoint = opt(p, '*:EndpointID');
  return {
    name: opt(p, '*:PartyLegalEntity/*:RegistrationName') ?? opt(p, '*:PartyName/*:Name'),
    trading_name: opt(p, '*:PartyName/*:Name'),
    vat_id: opt(p, "*:PartyTaxScheme[*:TaxScheme/*:ID = 'VAT']/*:CompanyID"),
    tax_number: opt(p, "*:PartyTaxScheme[not(*:TaxScheme/*:ID = 'VAT')]/*:CompanyID"),
    legal_registration_id: opt(p, '*:PartyLegalEntity/*:CompanyID'),
    electronic_address: endpoint ? { scheme: opt(p, '*:EndpointID/@schemeID'), value: endpoint } : undefined,
    identifiers: xpathNodes('*:PartyIdentification/*:ID', p).map((n) => ({
      scheme: opt(n, '@schemeID'),
      value: xpathString('.', n).trim(),
    })),
    address: compact({
      street: opt(p, '*:PostalAddress/*:StreetName'),
      additional: opt(p, '*:PostalAddress/*:AdditionalStreetName'),
      city: opt(p, '*:PostalAddress/*:CityName'),
      postal_code: opt(p, '*:PostalAddress/*:PostalZone'),
      country: opt(p, '*:PostalAddress/*:Country/*:IdentificationCode'),
    }),
    contact: compact({
      name: opt(p, '*:Contact/*:Name'),
      phone: opt(p, '*:Contact/*:Telephone'),
      email: opt(p, '*:Contact/*:ElectronicMail'),
    }),
  };
}

function ublAllowances(ctx: unknown) {
  return xpathNodes('*:AllowanceCharge', ctx).map((a) => ({
    charge: xpathString('*:ChargeIndicator', a).trim() === 'true',
    amount: opt(a, '*:Amount') ?? '0',
    base_amount: opt(a, '*:BaseAmount'),
    percentage: opt(a, '*:MultiplierFactorNumeric'),
    reason: opt(a, '*:AllowanceChargeReason'),
    reason_code: opt(a, '*:AllowanceChargeReasonCode'),
    vat_category: opt(a, '*:TaxCategory/*:ID'),
    vat_rate: opt(a, '*:TaxCategory/*:Percent'),
  }));
}

function readUbl(doc: XmlDoc): InboundContent {
  const r = xpathNodes('/*', doc)[0];
  const currency = opt(r, '*:DocumentCurrencyCode');
  const taxCurrency = otherCurrency(opt(r, '*:TaxCurrencyCode'), currency);
  const lines: InboundLine[] = xpathNodes('*:InvoiceLine | *:CreditNoteLine', r).map((l) => ({
    id: opt(l, '*:ID') ?? '',
    name: opt(l, '*:Item/*:Name'),
    description: opt(l, '*:Item/*:Description'),
    quantity: opt(l, '*:InvoicedQuantity | *:CreditedQuantity') ?? '0',
    unit: opt(l, '(*:InvoicedQuantity | *:CreditedQuantity)/@unitCode'),
    net_price: opt(l, '*:Price/*:PriceAmount'),
    net_amount: opt(l, '*:LineExtensionAmount') ?? '0',
    vat_category: opt(l, '*:Item/*:ClassifiedTaxCategory/*:ID'),
    vat_rate: opt(l, '*:Item/*:ClassifiedTaxCategory/*:Percent'),
    seller_item_id: opt(l, '*:Item/*:SellersItemIdentification/*:ID'),
    allowances_charges: ublAllowances(l),
  }));
  const m = xpathNodes('*:LegalMonetaryTotal', r)[0];
  return {
    number: opt(r, '*:ID'),
    type_code: opt(r, '*:InvoiceTypeCode | *:CreditNoteTypeCode'),
    issue_date: opt(r, '*:IssueDate'),
    due_date: opt(r, '*:DueDate') ?? opt(r, '*:PaymentMeans/*:PaymentDueDate'),
    delivery_date: opt(r, '*:Delivery/*:ActualDeliveryDate'),
    service_period: compact({ start: opt(r, '*:InvoicePeriod/*:StartDate'), end: opt(r, '*:InvoicePeriod/*:EndDate') }),
    currency,
    tax_currency: taxCurrency,
    buyer_reference: opt(r, '*:BuyerReference'),
    order_reference: opt(r, '*:OrderReference/*:ID'),
    contract_reference: opt(r, '*:ContractDocumentReference/*:ID'),
    project_reference: opt(r, '*:ProjectReference/*:ID'),
    preceding_invoices: all(r, '*:BillingReference/*:InvoiceDocumentReference/*:ID'),
    notes: all(r, '*:Note'),
    seller: ublParty(xpathNodes('*:AccountingSupplierParty/*:Party', r)[0] ?? r),
    buyer: ublParty(xpathNodes('*:AccountingCustomerParty/*:Party', r)[0] ?? r),
    lines,
    allowances_charges: ublAllowances(r),
    vat_breakdown: xpathNodes('*:TaxTotal/*:TaxSubtotal', r).map((t) => ({
      category: opt(t, '*:TaxCategory/*:ID'),
      rate: opt(t, '*:TaxCategory/*:Percent'),
      taxable_amount: opt(t, '*:TaxableAmount') ?? '0',
      tax_amount: opt(t, '*:TaxAmount') ?? '0',
      exemption_reason: opt(t, '*:TaxCategory/*:TaxExemptionReason'),
    })),
    totals: m
      ? {
          line_total: opt(m, '*:LineExtensionAmount'),
          allowance_total: opt(m, '*:AllowanceTotalAmount'),
          charge_total: opt(m, '*:ChargeTotalAmount'),
          tax_exclusive: opt(m, '*:TaxExclusiveAmount'),
          tax_total: currency
            ? opt(r, `*:TaxTotal/*:TaxAmount[@currencyID = '${currency.replace(/'/g, '')}']`)
            : opt(r, '*:TaxTotal/*:TaxAmount'),
          tax_total_tax_currency: taxCurrency
            ? opt(r, `*:TaxTotal/*:TaxAmount[@currencyID = '${taxCurrency.replace(/'/g, '')}']`)
            : undefined,
          tax_inclusive: opt(m, '*:TaxInclusiveAmount'),
          prepaid: opt(m, '*:PrepaidAmount'),
          rounding: opt(m, '*:PayableRoundingAmount'),
          payable: opt(m, '*:PayableAmount'),
        }
      : {},
    payment_means: xpathNodes('*:PaymentMeans', r).map((p) => ({
      code: opt(p, '*:PaymentMeansCode'),
      iban: opt(p, '*:PayeeFinancialAccount/*:ID') ?? opt(p, '*:PaymentMandate/*:PayerFinancialAccount/*:ID'),
      bic: opt(p, '*:PayeeFinancialAccount/*:FinancialInstitutionBranch/*:ID'),
      account_name: opt(p, '*:PayeeFinancialAccount/*:Name'),
      remittance: opt(p, '*:PaymentID'),
    })),
    payment_terms: opt(r, '*:PaymentTerms/*:Note'),
    attachments: xpathNodes('*:AdditionalDocumentReference', r).map((a) => ({
      id: opt(a, '*:ID'),
      filename: opt(a, '*:Attachment/*:EmbeddedDocumentBinaryObject/@filename'),
      mime_code: opt(a, '*:Attachment/*:EmbeddedDocumentBinaryObject/@mimeCode'),
      description: opt(a, '*:DocumentDescription'),
      uri: opt(a, '*:Attachment/*:ExternalReference/*:URI'),
    })),
  };
}

function ciiParty(p: unknown): InboundParty {
  const uri = opt(p, '*:URIUniversalCommunication/*:URIID');
  return {
    name: opt(p, '*:Name'),
    trading_name: opt(p, '*:SpecifiedLegalOrganization/*:TradingBusinessName'),
    vat_id: opt(p, "*:SpecifiedTaxRegistration/*:ID[@schemeID = 'VA']"),
    tax_number: opt(p, "*:SpecifiedTaxRegistration/*:ID[@schemeID = 'FC']"),
    legal_registration_id: opt(p, '*:SpecifiedLegalOrganization/*:ID'),
    electronic_address: uri ? { scheme: opt(p, '*:URIUniversalCommunication/*:URIID/@schemeID'), value: uri } : undefined,
    identifiers: xpathNodes('*:ID | *:GlobalID', p).map((n) => ({ scheme: opt(n, '@schemeID'), value: xpathString('.', n).trim() })),
    address: compact({
      street: opt(p, '*:PostalTradeAddress/*:LineOne'),
      additional: opt(p, '*:PostalTradeAddress/*:LineTwo'),
      city: opt(p, '*:PostalTradeAddress/*:CityName'),
      postal_code: opt(p, '*:PostalTradeAddress/*:PostcodeCode'),
      country: opt(p, '*:PostalTradeAddress/*:CountryID'),
    }),
    contact: compact({
      name: opt(p, '*:DefinedTradeContact/*:PersonName'),
      phone: opt(p, '*:DefinedTradeContact/*:TelephoneUniversalCommunication/*:CompleteNumber'),
      email: opt(p, '*:DefinedTradeContact/*:EmailURIUniversalCommunication/*:URIID'),
    }),
  };
}

function ciiAllowances(ctx: unknown) {
  return xpathNodes('*:SpecifiedTradeAllowanceCharge', ctx).map((a) => ({
    charge: xpathString('*:ChargeIndicator/*:Indicator', a).trim() === 'true',
    amount: opt(a, '*:ActualAmount') ?? '0',
    base_amount: opt(a, '*:BasisAmount'),
    percentage: opt(a, '*:CalculationPercent'),
    reason: opt(a, '*:Reason'),
    reason_code: opt(a, '*:ReasonCode'),
    vat_category: opt(a, '*:CategoryTradeTax/*:CategoryCode'),
    vat_rate: opt(a, '*:CategoryTradeTax/*:RateApplicablePercent'),
  }));
}

function readCii(doc: XmlDoc): InboundContent {
  const r = xpathNodes('/*', doc)[0];
  const t = xpathNodes('*:SupplyChainTradeTransaction', r)[0] ?? r;
  const a = xpathNodes('*:ApplicableHeaderTradeAgreement', t)[0] ?? t;
  const s = xpathNodes('*:ApplicableHeaderTradeSettlement', t)[0] ?? t;
  const m = xpathNodes('*:SpecifiedTradeSettlementHeaderMonetarySummation', s)[0];
  const currency = opt(s, '*:InvoiceCurrencyCode');
  const taxCurrency = otherCurrency(opt(s, '*:TaxCurrencyCode'), currency);
  const lines: InboundLine[] = xpathNodes('*:IncludedSupplyChainTradeLineItem', t).map((l) => ({
    id: opt(l, '*:AssociatedDocumentLineDocument/*:LineID') ?? '',
    name: opt(l, '*:SpecifiedTradeProduct/*:Name'),
    description: opt(l, '*:SpecifiedTradeProduct/*:Description'),
    quantity: opt(l, '*:SpecifiedLineTradeDelivery/*:BilledQuantity') ?? '0',
    unit: opt(l, '*:SpecifiedLineTradeDelivery/*:BilledQuantity/@unitCode'),
    net_price: opt(l, '*:SpecifiedLineTradeAgreement/*:NetPriceProductTradePrice/*:ChargeAmount'),
    net_amount: opt(l, '*:SpecifiedLineTradeSettlement/*:SpecifiedTradeSettlementLineMonetarySummation/*:LineTotalAmount') ?? '0',
    vat_category: opt(l, '*:SpecifiedLineTradeSettlement/*:ApplicableTradeTax/*:CategoryCode'),
    vat_rate: opt(l, '*:SpecifiedLineTradeSettlement/*:ApplicableTradeTax/*:RateApplicablePercent'),
    seller_item_id: opt(l, '*:SpecifiedTradeProduct/*:SellerAssignedID'),
    allowances_charges: ciiAllowances(xpathNodes('*:SpecifiedLineTradeSettlement', l)[0] ?? l),
  }));
  return {
    number: opt(r, '*:ExchangedDocument/*:ID'),
    type_code: opt(r, '*:ExchangedDocument/*:TypeCode'),
    issue_date: ciiDate(opt(r, '*:ExchangedDocument/*:IssueDateTime/*:DateTimeString')),
    due_date: ciiDate(opt(s, '*:SpecifiedTradePaymentTerms/*:DueDateDateTime/*:DateTimeString')),
    delivery_date: ciiDate(
      opt(t, '*:ApplicableHeaderTradeDelivery/*:ActualDeliverySupplyChainEvent/*:OccurrenceDateTime/*:DateTimeString'),
    ),
    service_period: compact({
      start: ciiDate(opt(s, '*:BillingSpecifiedPeriod/*:StartDateTime/*:DateTimeString')),
      end: ciiDate(opt(s, '*:BillingSpecifiedPeriod/*:EndDateTime/*:DateTimeString')),
    }),
    currency,
    tax_currency: taxCurrency,
    buyer_reference: opt(a, '*:BuyerReference'),
    order_reference: opt(a, '*:BuyerOrderReferencedDocument/*:IssuerAssignedID'),
    contract_reference: opt(a, '*:ContractReferencedDocument/*:IssuerAssignedID'),
    project_reference: opt(a, '*:SpecifiedProcuringProject/*:ID'),
    preceding_invoices: all(s, '*:InvoiceReferencedDocument/*:IssuerAssignedID'),
    notes: all(r, '*:ExchangedDocument/*:IncludedNote/*:Content'),
    seller: ciiParty(xpathNodes('*:SellerTradeParty', a)[0] ?? a),
    buyer: ciiParty(xpathNodes('*:BuyerTradeParty', a)[0] ?? a),
    lines,
    allowances_charges: ciiAllowances(s),
    vat_breakdown: xpathNodes('*:ApplicableTradeTax', s).map((x) => ({
      category: opt(x, '*:CategoryCode'),
      rate: opt(x, '*:RateApplicablePercent'),
      taxable_amount: opt(x, '*:BasisAmount') ?? '0',
      tax_amount: opt(x, '*:CalculatedAmount') ?? '0',
      exemption_reason: opt(x, '*:ExemptionReason'),
    })),
    totals: m
      ? {
          line_total: opt(m, '*:LineTotalAmount'),
          allowance_total: opt(m, '*:AllowanceTotalAmount'),
          charge_total: opt(m, '*:ChargeTotalAmount'),
          tax_exclusive: opt(m, '*:TaxBasisTotalAmount'),
          tax_total: currency ? opt(m, `*:TaxTotalAmount[@currencyID = '${currency.replace(/'/g, '')}']`) : opt(m, '*:TaxTotalAmount'),
          tax_total_tax_currency: taxCurrency ? opt(m, `*:TaxTotalAmount[@currencyID = '${taxCurrency.replace(/'/g, '')}']`) : undefined,
          tax_inclusive: opt(m, '*:GrandTotalAmount'),
          prepaid: opt(m, '*:TotalPrepaidAmount'),
          rounding: opt(m, '*:RoundingAmount'),
          payable: opt(m, '*:DuePayableAmount'),
        }
      : {},
    payment_means: xpathNodes('*:SpecifiedTradeSettlementPaymentMeans', s).map((p) => ({
      code: opt(p, '*:TypeCode'),
      iban: opt(p, '*:PayeePartyCreditorFinancialAccount/*:IBANID') ?? opt(p, '*:PayeePartyCreditorFinancialAccount/*:ProprietaryID'),
      bic: opt(p, '*:PayeeSpecifiedCreditorFinancialInstitution/*:BICID'),
      account_name: opt(p, '*:PayeePartyCreditorFinancialAccount/*:AccountName'),
      remittance: opt(s, '*:PaymentReference'),
    })),
    payment_terms: opt(s, '*:SpecifiedTradePaymentTerms/*:Description'),
    attachments: xpathNodes('*:AdditionalReferencedDocument', a).map((d) => ({
      id: opt(d, '*:IssuerAssignedID'),
      filename: opt(d, '*:AttachmentBinaryObject/@filename'),
      mime_code: opt(d, '*:AttachmentBinaryObject/@mimeCode'),
      description: opt(d, '*:Name'),
      uri: opt(d, '*:URIID'),
    })),
  };
}
