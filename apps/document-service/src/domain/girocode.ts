import type { EInvoice } from '@inv/einvoice';
import { buildEpcQr, type EpcQrResult } from './epc-qr';

/** UNCL 4461 payment means a GiroCode is printed for: 58 SEPA credit transfer, 30 credit transfer. */
const TRANSFER_MEANS = new Set(['58', '30']);

export type GirocodeDecision = EpcQrResult | { ok: false; reason: 'not-applicable'; message: string };

/**
 * Whether an invoice carries a GiroCode, and its payload: only an invoice (not a credit note) in euro with an
 * amount due above zero, paid by credit transfer to a seller account with an IBAN in the SEPA area. The amount is
 * the full amount due (gross minus prepaid), never reduced by Skonto: the payer may still take the discount by
 * changing the amount in the banking app, the caption says so. Beneficiary and remittance are the ones the
 * payment paragraph prints (account holder, else the seller; remittance info, else the invoice number).
 */
export function girocodeFor(invoice: EInvoice, amountDue: string): GirocodeDecision {
  const pay = invoice.payment;
  const skip = (message: string): GirocodeDecision => ({ ok: false, reason: 'not-applicable', message });
  if (invoice.typeCode !== '380') return skip('credit notes ask for no payment');
  if (!pay || !TRANSFER_MEANS.has(pay.meansCode)) return skip('not paid by credit transfer');
  if (!pay.iban) return skip('no seller IBAN');
  if (!/^\d+(\.\d+)?$/.test(amountDue) || /^0+(\.0+)?$/.test(amountDue)) return skip('no amount due');
  const label = invoice.language === 'de' ? 'Rechnung' : 'Invoice';
  return buildEpcQr({
    beneficiaryName: pay.accountName || invoice.seller.name,
    iban: pay.iban,
    bic: pay.bic,
    currency: invoice.currency,
    amount: amountDue,
    remittance: pay.remittanceInfo || invoice.number,
    beneficiaryToOriginator: `${label} ${invoice.number}`,
  });
}
