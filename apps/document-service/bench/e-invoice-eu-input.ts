import type { Invoice } from '@e-invoice-eu/core';
import type { EInvoice } from '@inv/einvoice';
import type { PdfTotals } from '../src/pdf';

/**
 * The same invoice in @e-invoice-eu/core's internal format (UBL-shaped JSON), so both libraries
 * produce a Factur-X EN 16931 PDF of identical content in the benchmark.
 */
export function toEInvoiceEuInput(inv: EInvoice, totals: PdfTotals): Invoice {
  const cur = { '@currencyID': inv.currency };
  const amount = (name: string, value: string): Record<string, string> => ({ [name]: value, [`${name}@currencyID`]: cur['@currencyID'] });
  const party = (p: EInvoice['seller']) => ({
    'cbc:EndpointID': p.electronicAddress?.value ?? p.contact?.email ?? 'info@example.com',
    'cbc:EndpointID@schemeID': p.electronicAddress?.scheme ?? 'EM',
    'cac:PartyName': { 'cbc:Name': p.name },
    'cac:PostalAddress': {
      'cbc:StreetName': p.address.line1,
      'cbc:CityName': p.address.city,
      'cbc:PostalZone': p.address.postalCode ?? '',
      'cac:Country': { 'cbc:IdentificationCode': p.address.countryCode },
    },
    ...(p.vatId ? { 'cac:PartyTaxScheme': [{ 'cbc:CompanyID': p.vatId, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } }] } : {}),
    'cac:PartyLegalEntity': { 'cbc:RegistrationName': p.name },
    ...(p.contact
      ? {
          'cac:Contact': {
            'cbc:Name': p.contact.name ?? p.name,
            'cbc:Telephone': p.contact.phone ?? '',
            'cbc:ElectronicMail': p.contact.email ?? '',
          },
        }
      : {}),
  });
  const data = {
    'ubl:Invoice': {
      'cbc:CustomizationID': 'urn:cen.eu:en16931:2017',
      'cbc:ID': inv.number,
      'cbc:IssueDate': inv.issueDate,
      ...(inv.dueDate ? { 'cbc:DueDate': inv.dueDate } : {}),
      'cbc:InvoiceTypeCode': inv.typeCode,
      'cbc:DocumentCurrencyCode': inv.currency,
      ...(inv.buyerReference ? { 'cbc:BuyerReference': inv.buyerReference } : {}),
      ...(inv.period ? { 'cac:InvoicePeriod': { 'cbc:StartDate': inv.period.start, 'cbc:EndDate': inv.period.end } } : {}),
      ...(inv.orderReference ? { 'cac:OrderReference': { 'cbc:ID': inv.orderReference } } : {}),
      'cac:AccountingSupplierParty': { 'cac:Party': party(inv.seller) },
      'cac:AccountingCustomerParty': { 'cac:Party': party(inv.buyer) },
      ...(inv.payment?.iban
        ? {
            'cac:PaymentMeans': [
              {
                'cbc:PaymentMeansCode': inv.payment.meansCode,
                'cbc:PaymentID': inv.payment.remittanceInfo ?? inv.number,
                'cac:PayeeFinancialAccount': {
                  'cbc:ID': inv.payment.iban,
                  ...(inv.payment.accountName ? { 'cbc:Name': inv.payment.accountName } : {}),
                  ...(inv.payment.bic ? { 'cac:FinancialInstitutionBranch': { 'cbc:ID': inv.payment.bic } } : {}),
                },
              },
            ],
          }
        : {}),
      ...(inv.paymentTerms ? { 'cac:PaymentTerms': { 'cbc:Note': inv.paymentTerms } } : {}),
      'cac:TaxTotal': [
        {
          ...amount('cbc:TaxAmount', totals.vatTotal),
          'cac:TaxSubtotal': totals.vatBreakdown.map((v) => ({
            ...amount('cbc:TaxableAmount', v.taxableAmount),
            ...amount('cbc:TaxAmount', v.taxAmount),
            'cac:TaxCategory': { 'cbc:ID': v.category, 'cbc:Percent': v.rate, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } },
          })),
        },
      ],
      'cac:LegalMonetaryTotal': {
        ...amount('cbc:LineExtensionAmount', totals.lineNetTotal),
        ...amount('cbc:TaxExclusiveAmount', totals.lineNetTotal),
        ...amount('cbc:TaxInclusiveAmount', totals.taxInclusiveTotal),
        ...amount('cbc:PayableAmount', totals.amountDue),
      },
      'cac:InvoiceLine': inv.lines.map((line, i) => {
        const allowance = totals.lines[i].allowance;
        return {
          'cbc:ID': line.id,
          'cbc:InvoicedQuantity': line.quantity,
          'cbc:InvoicedQuantity@unitCode': line.unitCode,
          ...amount('cbc:LineExtensionAmount', totals.lines[i].net),
          ...(line.discount && allowance && allowance !== '0.00'
            ? {
                'cac:AllowanceCharge': [
                  {
                    'cbc:ChargeIndicator': 'false',
                    'cbc:AllowanceChargeReasonCode': '95',
                    'cbc:AllowanceChargeReason': line.discount.reason ?? 'Discount',
                    ...amount('cbc:Amount', allowance),
                  },
                ],
              }
            : {}),
          'cac:Item': {
            'cbc:Name': line.name,
            'cac:ClassifiedTaxCategory': {
              'cbc:ID': line.vat.category,
              'cbc:Percent': line.vat.rate,
              'cac:TaxScheme': { 'cbc:ID': 'VAT' },
            },
          },
          'cac:Price': amount('cbc:PriceAmount', line.unitPrice),
        };
      }),
    },
  };
  return data as unknown as Invoice;
}
