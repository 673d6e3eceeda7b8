import { checkPartyIdentifier, type CompanyId, type CompanyProfileUpdate } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { conflict, invalidData, notFound, type FieldError } from '@inv/service-kit';
import type { CompanyDoc } from '../domain/company-doc';
import { paymentTermsOf } from '../domain/payment-term-rules';
import { bankAccountsOf } from '../domain/profile-rules';
import type { CompanyDeps } from '../support/deps';
import { loadCompany } from './load-company';

/** PUT /company/: the fields sent change; invoices finalized before keep the seller data they were issued with. */
export async function updateCompanyProfile(deps: CompanyDeps, companyId: CompanyId, input: CompanyProfileUpdate): Promise<CompanyDoc> {
  const current = await loadCompany(deps, companyId);
  const set: Record<string, unknown> = {};
  const unset: Record<string, 1> = {};
  const errors: FieldError[] = [];
  if (input.default_payment_term_id != null && !paymentTermsOf(current).some((t) => t.id === input.default_payment_term_id)) {
    errors.push({
      path: 'default_payment_term_id',
      message: `payment term ${input.default_payment_term_id} does not exist; see GET /company/payment-terms`,
    });
  }
  if (input.default_template_id != null && deps.templateExists && !(await deps.templateExists(companyId, input.default_template_id))) {
    errors.push({ path: 'default_template_id', message: `template ${input.default_template_id} does not exist; see GET /template/` });
  }
  errors.push(...identifierErrors(current, input));
  if (errors.length) throw invalidData('the company profile is invalid', errors);
  if (input.small_business !== undefined) set.smallBusiness = input.small_business;
  // null: no default term (stored as null, so the legacy match on payment_term_days does not bring one back)
  if (input.default_payment_term_id === null) set.defaultPaymentTermId = null;
  else if (input.default_payment_term_id !== undefined) set.defaultPaymentTermId = input.default_payment_term_id;
  if (input.default_template_id === null) unset.defaultTemplateId = 1;
  else if (input.default_template_id !== undefined) set.defaultTemplateId = input.default_template_id;
  if (input.legal_name !== undefined) set.legalName = input.legal_name;
  if (input.trading_name !== undefined) set.name = input.trading_name;
  if (input.address)
    set.address = {
      line1: input.address.line1,
      line2: input.address.line2 ?? undefined,
      postalCode: input.address.postal_code,
      city: input.address.city,
      countryCode: input.address.country_code,
    };
  // JSON Merge Patch: null removes the value (the contract lets null through only for removable fields)
  const patch = (field: keyof CompanyDoc, value: unknown) => {
    if (value === null) unset[field] = 1;
    else if (value !== undefined) set[field] = value;
  };
  patch('vatId', typeof input.vat_id === 'string' ? input.vat_id.replace(/[\s.-]/g, '').toUpperCase() : input.vat_id);
  patch('taxNumber', input.tax_number);
  patch('peppolId', input.peppol_id);
  patch('registrationCourt', input.registration_court);
  patch('registrationId', identifierValue(input.registration_id, input.registration_id_scheme, current.registrationIdScheme));
  // removing an identifier removes its scheme
  patch('registrationIdScheme', input.registration_id === null ? null : input.registration_id_scheme);
  patch('sellerIdentifier', identifierValue(input.seller_identifier, input.seller_identifier_scheme, current.sellerIdentifierScheme));
  patch('sellerIdentifierScheme', input.seller_identifier === null ? null : input.seller_identifier_scheme);
  patch('managingDirectors', input.managing_directors);
  patch('contactName', input.contact_name);
  patch('email', input.email);
  patch('phone', input.phone);
  patch('website', input.website);
  if (input.default_language !== undefined) set.defaultLanguage = input.default_language;
  if (input.payment_term_days !== undefined) set.paymentTermDays = input.payment_term_days;
  const fields = [...Object.keys(set), ...Object.keys(unset)];
  if (fields.length === 0) return current;
  const clearDemo = demoValuesGo(current, set, unset, fields);
  const vatChanged = typeof set.vatId === 'string' && set.vatId !== current.vatId;
  if (vatChanged || unset.vatId) unset.vatCheck = 1;
  return deps.commit(async (session, emit) => {
    let updated = await deps.companies.update(companyId, { ...set, updatedAt: deps.now() }, unset, session);
    if (!updated) throw notFound('company');
    if (clearDemo) {
      // the demo bank account goes with the other demo values (conditional on the accounts' revision, as every change of them)
      const own = bankAccountsOf(updated).filter((a) => !a.demo);
      if (own.length !== bankAccountsOf(updated).length) {
        if (own.length && !own.some((a) => a.isDefault)) own[0] = { ...own[0]!, isDefault: true };
        if (!(await deps.companies.setBankAccounts(companyId, updated.bankAccountsRev, own, deps.now(), session)))
          throw conflict('the bank accounts changed meanwhile; retry', 'CONCURRENT_MODIFICATION');
        updated = { ...updated, bankAccounts: own, bankAccountsRev: (updated.bankAccountsRev ?? 0) + 1 };
        fields.push('bank_accounts');
      }
    }
    emit(eventMessage('company.profile-changed.v1', companyId, { fields }));
    // The company's VAT ID is checked at VIES the way customers' are (vat-service answers with vat.checked.v1).
    if (vatChanged && updated.vatId) emit(eventMessage('company.vat-id-changed.v1', companyId, { vatId: updated.vatId }));
    return updated;
  });
}

/**
 * BT-29 and BT-30 with their schemes, as they will be after this merge patch: a scheme needs its identifier, and an
 * identifier under a scheme Peppol checks must have that scheme's format (a GLN under 0088 its check digit, ...).
 */
function identifierErrors(current: CompanyDoc, input: CompanyProfileUpdate): FieldError[] {
  const errors: FieldError[] = [];
  const pairs = [
    [
      'seller_identifier',
      input.seller_identifier,
      current.sellerIdentifier,
      input.seller_identifier_scheme,
      current.sellerIdentifierScheme,
    ],
    ['registration_id', input.registration_id, current.registrationId, input.registration_id_scheme, current.registrationIdScheme],
  ] as const;
  for (const [field, sent, stored, sentScheme, storedScheme] of pairs) {
    if (sent === undefined && sentScheme === undefined) continue;
    const value = sent === undefined ? stored : (sent ?? undefined);
    const scheme = sent === null ? undefined : sentScheme === undefined ? storedScheme : (sentScheme ?? undefined);
    if (scheme && !value) {
      errors.push({ path: `${field}_scheme`, message: `a scheme needs its identifier: send ${field} too, or null to remove the scheme` });
      continue;
    }
    if (!value) continue;
    const check = checkPartyIdentifier(value, scheme);
    if (!check.ok) errors.push({ path: sent === undefined ? `${field}_scheme` : field, message: `${check.reason} (scheme ${scheme})` });
  }
  return errors;
}

/** The identifier as stored: normalised for its scheme (a GLN without spaces, ...); unchanged without one. */
function identifierValue(sent: string | null | undefined, sentScheme: string | null | undefined, storedScheme: string | undefined) {
  if (typeof sent !== 'string') return sent;
  const scheme = sentScheme === undefined ? storedScheme : (sentScheme ?? undefined);
  const check = checkPartyIdentifier(sent, scheme);
  return check.ok ? check.value : sent;
}

/**
 * The demo company's values (bootstrap-demo-company.ts) are marked in `demoFields` until the company replaces them; a
 * field sent leaves the list. Once the company has given its legal name and its address (in one request or in several),
 * every demo value it has not replaced goes: the trading name becomes the legal name, the other fields are removed and
 * so is the demo bank account, so no demo value lingers on invoices or in the web app. Answers whether that happens.
 */
function demoValuesGo(current: CompanyDoc, set: Record<string, unknown>, unset: Record<string, 1>, fields: string[]): boolean {
  const demo = current.demoFields;
  if (!demo?.length) return false;
  const left = demo.filter((f) => !(f in set) && !(f in unset));
  if (left.includes('legalName') || left.includes('address')) {
    if (left.length !== demo.length) set.demoFields = left;
    return false;
  }
  for (const f of left) {
    if (f === 'name') set.name = set.legalName ?? current.legalName;
    else unset[f] = 1;
    fields.push(f);
  }
  unset.demoFields = 1;
  return true;
}
