/** What the customer use cases share: references that must exist, numbers, stored fields, the VAT check. */
import type { CompanyId, CustomerUpdate } from '@inv/contracts';
import { eventMessage, givenFields } from '@inv/runtime';
import { AppError, invalidData, type FieldError } from '@inv/service-kit';
import type { CustomerDoc } from '../domain/customer-doc';
import { CHECKSUM_FAULT, CUSTOMER_NUMBER_FIRST, CUSTOMER_NUMBER_LAST, failsCheckDigits } from '../domain/customer';
import type { CustomerDeps } from './deps';
import { askOrUnavailable } from './remote';

/** payment_term_id and default_ftl_template_id must name things the company has (400 naming the field otherwise). */
export async function assertReferences(
  deps: CustomerDeps,
  companyId: CompanyId,
  input: { payment_term_id?: number; default_ftl_template_id?: number },
) {
  const errors: FieldError[] = [];
  if (input.payment_term_id !== undefined && !(await paymentTermExists(deps, companyId, input.payment_term_id))) {
    errors.push({ path: 'payment_term_id', message: `payment term ${input.payment_term_id} does not exist` });
  }
  if (input.default_ftl_template_id !== undefined) {
    const templateId = input.default_ftl_template_id;
    const { exists } = await askOrUnavailable('the template directory (document-service)', () =>
      deps.bus.callRpc('document.template-exists.v1', companyId, { templateId }, { timeoutMs: deps.rpcTimeoutMs }),
    );
    if (!exists) errors.push({ path: 'default_ftl_template_id', message: `template ${templateId} does not exist` });
  }
  if (errors.length) throw invalidData(`invalid request: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, errors);
}

/**
 * Whether the company has the payment term. Our copy (kept from account-service's events) answers most checks; a term
 * it does not know may have been created a moment ago with its event still on the way, so then account-service, the
 * owner, answers, and its answer refreshes the copy (an older answer than the copy changes nothing).
 */
async function paymentTermExists(deps: CustomerDeps, companyId: CompanyId, id: number): Promise<boolean> {
  if (await deps.paymentTerms.exists(companyId, id)) return true;
  const owner = await askOrUnavailable('the payment-term directory (account-service)', () =>
    deps.bus.callRpc('account.payment-terms.v1', companyId, {}, { timeoutMs: deps.rpcTimeoutMs }),
  );
  if (!owner.found || !owner.terms) return false;
  if (owner.rev) await deps.paymentTerms.apply(companyId, owner.rev, owner.terms);
  return owner.terms.some((t) => t.id === id);
}

/** Customer numbers come from a per-company counter, so a number is never handed out twice, even after deletion. */
export async function nextCustomerNumber(deps: CustomerDeps, companyId: CompanyId): Promise<number> {
  const n = await deps.counters.next(`customer-number:${companyId}`, CUSTOMER_NUMBER_FIRST);
  if (n > CUSTOMER_NUMBER_LAST) {
    throw new AppError('conflict', `all customer numbers ${CUSTOMER_NUMBER_FIRST}-${CUSTOMER_NUMBER_LAST} are used`, {
      code: 'CUSTOMER_NUMBERS_EXHAUSTED',
    });
  }
  return n;
}

/** API field -> stored field, for the fields present in the input (partial update: the rest stays). */
export function fieldsOf(input: CustomerUpdate): Partial<CustomerDoc> {
  const set: Partial<CustomerDoc> = {
    contactType: input.contact_type,
    organizationName: input.organization_name,
    firstName: input.first_name,
    lastName: input.last_name,
    email: input.email,
    emailLower: input.email?.toLowerCase(),
    vatId: input.vat_id,
    language: input.language,
    paymentTermId: input.payment_term_id,
    defaultTemplateId: input.default_ftl_template_id,
    salutation: input.salutation,
    isActive: input.is_active,
    phone: input.phone,
    buyerReference: input.buyer_reference,
    peppolId: input.peppol_id,
    codiceDestinatario: input.codice_destinatario,
    pec: input.pec,
    codiceFiscale: input.codice_fiscale,
    partitaIva: input.partita_iva,
  };
  for (const k of Object.keys(set) as (keyof CustomerDoc)[]) if (set[k] === undefined) delete set[k];
  return set;
}

/**
 * A B2B VAT ID whose check digits fail is invalid without asking VIES: sets that verdict on `c` (when it is
 * not already there) and says so, so the caller skips the VIES check.
 */
export function checksumVerdict(c: Pick<CustomerDoc, 'contactType' | 'vatId' | 'vat'>, now: Date): boolean {
  if (c.contactType !== 'B2B' || !c.vatId || !failsCheckDigits(c.vatId)) return false;
  if (c.vat.vatId !== c.vatId || c.vat.fault !== CHECKSUM_FAULT)
    c.vat = { status: 'invalid', vatId: c.vatId, checkedAt: now.toISOString(), fault: CHECKSUM_FAULT };
  return true;
}

export const vatCheckEvent = (companyId: CompanyId, customerId: number, vatId: string, forceRefresh?: boolean) =>
  eventMessage('customer.vat-id-changed.v1', companyId, { customerId, vatId, ...(forceRefresh ? { forceRefresh } : {}) });

/** A customer was created or changed: the audit log records which fields (customer.changed.v1). */
export const customerChangedEvent = (companyId: CompanyId, customerId: number, action: 'created' | 'updated', input: object) =>
  eventMessage('customer.changed.v1', companyId, { customerId, action, fields: givenFields(input) });
