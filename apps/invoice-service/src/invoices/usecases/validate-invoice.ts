import { AppError } from '@inv/service-kit';
import type { InvoiceDoc } from '../db/invoices';
import { asSmallBusinessPositions, buildSnapshot } from '../domain/snapshot';
import { positionAmountErrors, totalsOf } from '../domain/totals';
import { vatRateWarnings } from '../domain/vat-rate-plausibility';
import { attachmentsNotInXml } from '@inv/contracts';
import { formatForApiInvoiceFormat, requirementsFor, type EInvoice } from '@inv/einvoice/rules';
import type { InvoicesDeps } from '../deps';

/** One rule finding, the same in GET /invoice/{id}/validate (`errors`, `warnings`) and in finalization's 422 (`errors`). */
export interface ValidationError {
  field: string;
  rule: string;
  message: string;
}

/** The rule of the one finding the caller's confirmation clears (vat_override_confirmed: true) instead of a fix. */
export const VAT_OVERRIDE_RULE = 'VAT_OVERRIDE_REQUIRED';

type VatStatus = 'valid' | 'invalid' | 'unavailable' | 'pending' | 'not_checked';

/**
 * A customer VAT ID that is not confirmed (VIES said invalid, its check digits fail, VIES was unavailable, the
 * check is pending): finalization needs vat_override_confirmed: true. No VAT ID (B2C, or none given), or a tax number
 * VIES does not know (a buyer in Norway, Switzerland or the UK: status not_checked): nothing.
 */
export function vatConfirmationFinding(customerId: number, vatId: string | undefined, status: VatStatus): ValidationError | undefined {
  if (!vatId || status === 'valid' || status === 'not_checked') return undefined;
  return {
    field: 'customer.vat_id',
    rule: VAT_OVERRIDE_RULE,
    message: `the customer's VAT ID ${vatId} is not confirmed (VAT check status ${status}; see GET /customer/${customerId}/vat-check): correct it, or finalize with vat_override_confirmed: true to issue the invoice anyway`,
  };
}

/**
 * Everything finalization needs, checked before it is attempted: our own rules (customer, billing address,
 * positions, VAT status) plus what the chosen e-invoice format requires, evaluated here on the snapshot with
 * the pure format rules of @inv/einvoice (the same function document-service renders by; an RPC used to ship
 * the snapshot to document-service and back). Also returns the frozen parts so finalization does not ask twice.
 */
export async function validateInvoice(deps: InvoicesDeps, inv: InvoiceDoc, issueDate: string) {
  assertComputableAmounts(inv);
  const [seller, buyer] = await Promise.all([
    deps.peers.sellerProfile(inv.companyId),
    deps.peers.billingSnapshot(inv.companyId, inv.customerId),
  ]);
  const errors: ValidationError[] = [];
  const warningsOfProfile: ValidationError[] = [];
  const checks: string[] = ['customer', 'billing_address', 'positions', 'seller_profile', 'format_requirements', 'vat_id', 'vat_rates'];
  if (!buyer.found) errors.push({ field: 'customer_id', rule: 'CUSTOMER_EXISTS', message: `customer ${inv.customerId} does not exist` });
  else if (!buyer.hasBillingAddress)
    errors.push({ field: 'customer.addresses', rule: 'BILLING_ADDRESS_REQUIRED', message: 'the customer has no billing address' });
  if (inv.positions.length === 0)
    errors.push({ field: 'positions', rule: 'AT_LEAST_ONE_POSITION', message: 'the invoice has no positions' });
  if (!seller.found) errors.push({ field: 'company', rule: 'SELLER_PROFILE', message: 'the company profile is missing' });
  for (const field of seller.found ? (seller.missing ?? []) : []) {
    errors.push({
      field: `company.${field}`,
      rule: 'SELLER_PROFILE',
      message: `the company profile lacks ${field}; set it with PUT /company/`,
    });
  }
  if (seller.found && seller.smallBusiness) {
    // A Kleinunternehmer charges no VAT (§ 19 UStG): its positions are issued VAT-exempt, whatever was entered.
    const taxed = inv.positions.filter((p) => p.taxTreatmentId !== 'exempt' || Number(p.taxRate) !== 0);
    if (taxed.length)
      warningsOfProfile.push({
        field: 'positions',
        rule: 'SMALL_BUSINESS_NO_VAT',
        message: `positions ${taxed.map((p) => p.id).join(', ')} will be issued without VAT (§ 19 UStG)`,
      });
    inv = { ...inv, positions: asSmallBusinessPositions(inv.positions) };
  }
  if (!seller.found) {
    // nothing more to check about the seller
  } else if (!seller.payment?.iban && inv.typeCode !== '381') {
    // an invoice asks for payment by credit transfer (means 58): it needs the company's account
    errors.push({
      field: 'company.bank_accounts',
      rule: 'BANK_ACCOUNT_REQUIRED',
      message: 'the company has no bank account for the payment instructions; add one with POST /company/bank-accounts',
    });
  }
  let preceding: { number: string; issueDate?: string } | undefined;
  if (inv.precedingInvoiceId) {
    const prev = await deps.invoices.get(inv.companyId, inv.precedingInvoiceId);
    if (prev) preceding = { number: prev.number, issueDate: prev.invoiceDate };
  }
  const snapshot = buildSnapshot(inv, issueDate, seller, buyer, preceding);
  if (buyer.found && buyer.hasBillingAddress && inv.positions.length > 0) {
    const format = formatForApiInvoiceFormat(inv.format);
    const formatErrors = format ? requirementsFor(format, snapshot as unknown as EInvoice) : [];
    for (const e of formatErrors) {
      const field = companyFieldOf(e.field);
      if (!field) errors.push(e);
      // the seller profile already named it (company.address covers company.address.city and the reverse)
      else if (!errors.some((known) => known.field.startsWith(field) || field.startsWith(known.field)))
        errors.push({ field, rule: e.rule, message: `${e.message} Set company ${companyFieldsToSet(e.rule, field)} with PUT /company/.` });
    }
  }
  // Last, as finalization weighs it last: what only needs the caller's confirmation, not a fix.
  const vatFinding = buyer.found ? vatConfirmationFinding(inv.customerId, buyer.buyer?.vatId, buyer.vatStatus) : undefined;
  if (vatFinding) errors.push(vatFinding);
  // Attachments the e-invoice syntax cannot carry are no error, but the caller should know where they go.
  // a draft that never had an attachment upload has none (one less query per finalization)
  const attachments = inv.attachmentsUploaded === false ? [] : await deps.attachments.ofInvoice(inv.companyId, inv.id);
  const warnings = [
    ...warningsOfProfile,
    // a rate the country does not have on the date of supply (16 % in Germany outside the second half of 2020)
    ...vatRateWarnings(snapshot),
    ...attachmentsNotInXml(inv.format, attachments).map((l) => ({
      field: 'attachments',
      rule: 'ATTACHMENT_NOT_IN_XML',
      message: `${l.filename}: ${l.reason}`,
    })),
  ];
  if (attachments.length) checks.push('attachments');
  return {
    valid: errors.length === 0,
    errors,
    warnings,
    checks,
    vatStatus: buyer.vatStatus,
    /** Finalization needs vat_override_confirmed: true (the VAT_OVERRIDE_REQUIRED finding is among `errors`). */
    vatOverrideRequired: vatFinding !== undefined,
    snapshot,
    buyer,
    seller,
    positions: inv.positions,
    attachments,
  };
}

/**
 * The company field behind a format rule about the seller or its payment instructions (document-service names snapshot paths): the
 * company fixes its profile, not the invoice, so the error names what to set with PUT /company/.
 */
const SELLER_FIELDS: Record<string, string> = {
  'seller.name': 'company.legal_name',
  'seller.vatId': 'company.vat_id',
  'seller.taxNumber': 'company.tax_number',
  'seller.address': 'company.address',
  'seller.address.line1': 'company.address.line1',
  'seller.address.city': 'company.address.city',
  'seller.address.postalCode': 'company.address.postal_code',
  'seller.address.countryCode': 'company.address.country_code',
  'seller.contact.name': 'company.contact_name',
  'seller.contact.phone': 'company.phone',
  'seller.contact.email': 'company.email',
  'seller.electronicAddress': 'company.email',
  payment: 'company.bank_accounts',
  'payment.iban': 'company.bank_accounts',
};
export const companyFieldOf = (field: string): string | undefined => SELLER_FIELDS[field];

/** BR-CO-26 is met by a VAT ID, a seller identifier (BT-29) or a register entry (BT-30): the finding names all three. */
const companyFieldsToSet = (rule: string, field: string) =>
  rule === 'BR-CO-26' ? 'vat_id, seller_identifier or registration_id' : field.slice('company.'.length);

/**
 * Positions stored before the input bounds existed may hold amounts no e-invoice can carry: such an invoice
 * is refused with the positions named (422) instead of failing somewhere in the snapshot or the renderer.
 */
const amountFinding = (path: string, message: string) => ({ path, field: path, rule: 'AMOUNT_BOUNDS', message });

function assertComputableAmounts(inv: InvoiceDoc) {
  const errors = inv.positions.flatMap((p) => positionAmountErrors(p).map((e) => amountFinding(`positions[${p.id}].${e.path}`, e.message)));
  if (errors.length === 0) {
    try {
      totalsOf(inv.positions);
    } catch (err) {
      errors.push(amountFinding('positions', (err as Error).message));
    }
  }
  if (errors.length > 0) {
    throw new AppError('unprocessable', 'the invoice has amounts outside the supported bounds; correct its positions', {
      code: 'INVOICE_NOT_VALID',
      errors,
    });
  }
}

/** A finding as an entry of the problem's `errors`: `path` (what every 400/422 entry has) beside field, rule, message. */
const problemEntry = (e: ValidationError) => ({ path: e.field, field: e.field, rule: e.rule, message: e.message });

/**
 * Finalization's verdict on a validation: it refuses exactly what GET /invoice/{id}/validate reports in `errors`,
 * with the same findings, except the VAT_OVERRIDE_REQUIRED finding once the caller confirmed it. Only that
 * finding left: 422 VAT_OVERRIDE_REQUIRED; anything else: 422 INVOICE_NOT_VALID listing all of them.
 */
export function assertFinalizable(
  result: { errors: ValidationError[]; vatStatus: VatStatus; vatOverrideRequired: boolean },
  vatOverrideConfirmed: boolean,
) {
  const blocking = result.errors.filter((e) => !(vatOverrideConfirmed && e.rule === VAT_OVERRIDE_RULE));
  if (blocking.length === 0) return;
  const overrideRequired = result.vatOverrideRequired && !vatOverrideConfirmed;
  const extra = { vat_check: { status: result.vatStatus }, vat_override_required: overrideRequired };
  if (blocking.every((e) => e.rule === VAT_OVERRIDE_RULE)) {
    throw new AppError(
      'unprocessable',
      `the customer's VAT ID could not be confirmed (status ${result.vatStatus}); resend with vat_override_confirmed: true to finalize anyway`,
      { code: 'VAT_OVERRIDE_REQUIRED', errors: blocking.map(problemEntry), extra },
    );
  }
  throw new AppError('unprocessable', `the invoice cannot be finalized: ${blocking.map((e) => e.message).join('; ')}`, {
    code: 'INVOICE_NOT_VALID',
    errors: blocking.map(problemEntry),
    extra,
  });
}

/** What validateInvoice answers (presented by http/presenters.ts presentValidation). */
export type ValidationResult = Awaited<ReturnType<typeof validateInvoice>>;
