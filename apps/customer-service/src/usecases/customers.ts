import { customerNameIssues, type CustomerCreate, type CustomerListQuery, type CustomerUpdate } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { AppError, conflict, invalidData, notFound, type FieldError } from '@inv/service-kit';
import type { CustomerDoc } from '../db/customers';
import { CHECKSUM_FAULT, CUSTOMER_NUMBER_FIRST, CUSTOMER_NUMBER_LAST, failsCheckDigits, needsVatCheck } from '../domain/customer';
import type { CustomerDeps } from './deps';
import { askOrUnavailable } from './remote';

/** The API fields a request gave (announced for the audit log; never their values). */
const givenFields = (input: object) => Object.entries(input).filter(([, v]) => v !== undefined).map(([k]) => k);

export async function loadCustomer(deps: CustomerDeps, companyId: string, id: number): Promise<CustomerDoc> {
  const c = await deps.customers.get(companyId, id);
  if (!c) throw notFound(`customer ${id}`);
  return c;
}

/** payment_term_id and default_ftl_template_id must name things the company has (400 naming the field otherwise). */
async function assertReferences(deps: CustomerDeps, companyId: string, input: { payment_term_id?: number; default_ftl_template_id?: number }) {
  const errors: FieldError[] = [];
  if (input.payment_term_id !== undefined && !(await deps.paymentTerms.exists(companyId, input.payment_term_id))) {
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

/** Customer numbers come from a per-company counter, so a number is never handed out twice, even after deletion. */
async function nextCustomerNumber(deps: CustomerDeps, companyId: string): Promise<number> {
  const n = await deps.counters.next(`customer-number:${companyId}`, CUSTOMER_NUMBER_FIRST);
  if (n > CUSTOMER_NUMBER_LAST) {
    throw new AppError('conflict', `all customer numbers ${CUSTOMER_NUMBER_FIRST}-${CUSTOMER_NUMBER_LAST} are used`, { code: 'CUSTOMER_NUMBERS_EXHAUSTED' });
  }
  return n;
}

/** API field -> stored field, for the fields present in the input (partial update: the rest stays). */
function fieldsOf(input: CustomerUpdate): Partial<CustomerDoc> {
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
  };
  for (const k of Object.keys(set) as (keyof CustomerDoc)[]) if (set[k] === undefined) delete set[k];
  return set;
}

/**
 * A B2B VAT ID whose check digits fail is invalid without asking VIES: sets that verdict on `c` (when it is
 * not already there) and says so, so the caller skips the VIES check.
 */
function checksumVerdict(c: Pick<CustomerDoc, 'contactType' | 'vatId' | 'vat'>, now: Date): boolean {
  if (c.contactType !== 'B2B' || !c.vatId || !failsCheckDigits(c.vatId)) return false;
  if (c.vat.vatId !== c.vatId || c.vat.fault !== CHECKSUM_FAULT) c.vat = { status: 'invalid', vatId: c.vatId, checkedAt: now.toISOString(), fault: CHECKSUM_FAULT };
  return true;
}

const vatCheckEvent = (companyId: string, customerId: number, vatId: string, forceRefresh?: boolean) =>
  eventMessage('customer.vat-id-changed.v1', companyId, { customerId, vatId, ...(forceRefresh ? { forceRefresh } : {}) });

export async function createCustomer(deps: CustomerDeps, companyId: string, input: CustomerCreate): Promise<number> {
  await assertReferences(deps, companyId, input);
  const now = deps.now();
  const id = await deps.counters.next('customer');
  const fields = fieldsOf(input);
  const doc: CustomerDoc = {
    _id: id,
    companyId,
    customerNumber: await nextCustomerNumber(deps, companyId),
    contactType: input.contact_type,
    isActive: true,
    ...fields,
    addresses: [],
    vat: { status: 'not_checked' },
    rev: 0,
    createdAt: now,
    updatedAt: now,
  };
  const check = needsVatCheck(undefined, doc) && !checksumVerdict(doc, now);
  if (check && doc.vatId) doc.vat = { status: 'pending', vatId: doc.vatId, requestedAt: now };
  await deps.commit(async (session, emit) => {
    await deps.customers.insert(doc, session);
    if (check && doc.vatId) emit(vatCheckEvent(companyId, id, doc.vatId));
    emit(eventMessage('customer.changed.v1', companyId, { customerId: id, action: 'created', fields: givenFields(input) }));
  });
  return id;
}

export async function updateCustomer(deps: CustomerDeps, companyId: string, id: number, input: CustomerUpdate): Promise<void> {
  const before = await loadCustomer(deps, companyId, id);
  const set = fieldsOf(input);
  const after = { ...before, ...set };
  const nameIssues = customerNameIssues({
    contact_type: after.contactType,
    organization_name: after.organizationName,
    first_name: after.firstName,
    last_name: after.lastName,
  });
  if (nameIssues.length) throw invalidData(`invalid request: ${nameIssues.map((e) => `${e.path}: ${e.message}`).join('; ')}`, nameIssues);
  await assertReferences(deps, companyId, {
    payment_term_id: input.payment_term_id !== before.paymentTermId ? input.payment_term_id : undefined,
    default_ftl_template_id: input.default_ftl_template_id !== before.defaultTemplateId ? input.default_ftl_template_id : undefined,
  });
  const now = deps.now();
  const check = needsVatCheck(before, after) && !checksumVerdict(after, now);
  if (after.vat !== before.vat) set.vat = after.vat;
  if (check && after.vatId) set.vat = { status: 'pending', vatId: after.vatId, requestedAt: now };
  set.updatedAt = now;
  await deps.commit(async (session, emit) => {
    // Optimistic: a concurrent change (another PUT, an address edit) must not be overwritten silently.
    if (!(await deps.customers.updateAtRev(companyId, id, before.rev, set, session))) throw conflict(`customer ${id} changed meanwhile; retry`, 'CONCURRENT_MODIFICATION');
    if (check && after.vatId) emit(vatCheckEvent(companyId, id, after.vatId));
    emit(eventMessage('customer.changed.v1', companyId, { customerId: id, action: 'updated', fields: givenFields(input) }));
  });
}

/** Asks vat-service to check the current VAT ID again (cache bypassed); the stored status stays until the answer arrives. */
export async function requestVatRecheck(deps: CustomerDeps, c: CustomerDoc): Promise<boolean> {
  if (c.contactType !== 'B2B' || !c.vatId || failsCheckDigits(c.vatId)) return false;
  const vatId = c.vatId;
  await deps.commit(async (session, emit) => {
    await deps.customers.markVatRequested(c.companyId, c._id, vatId, deps.now(), session);
    emit(vatCheckEvent(c.companyId, c._id, vatId, true));
  });
  return true;
}

export function listCustomers(deps: CustomerDeps, companyId: string, q: CustomerListQuery) {
  return deps.customers.list(companyId, { contactType: q.contact_type, isActive: q.is_active, email: q.email, q: q.q }, q);
}
