import { type CompanyId, customerNameIssues, type CustomerUpdate } from '@inv/contracts';
import { conflict, invalidData } from '@inv/service-kit';
import { needsVatCheck } from '../domain/customer';
import { assertReferences, checksumVerdict, fieldsOf, vatCheckEvent, customerChangedEvent } from '../support/customer-rules';
import type { CustomerDeps } from '../support/deps';
import { loadCustomer } from './load-customer';

export async function updateCustomer(deps: CustomerDeps, companyId: CompanyId, id: number, input: CustomerUpdate): Promise<void> {
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
    if (!(await deps.customers.updateAtRev(companyId, id, before.rev, set, session)))
      throw conflict(`customer ${id} changed meanwhile; retry`, 'CONCURRENT_MODIFICATION');
    if (check && after.vatId) emit(vatCheckEvent(companyId, id, after.vatId));
    emit(customerChangedEvent(companyId, id, 'updated', input));
  });
}
