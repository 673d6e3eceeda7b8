import type { CompanyId, InvoiceUpdate } from '@inv/contracts';
import { conflict, invalidData } from '@inv/service-kit';
import type { InvoiceDoc } from '../db/invoices';
import { eventMessage, givenFields } from '@inv/runtime';
import type { InvoicesDeps } from '../deps';
import { assertCustomer, assertTemplate, duplicateNumber, metaFields } from './draft-rules';
import { handOverHeld, heldEvents } from '../db/held-events';
import { loadDraft } from './load-invoice';

export async function updateInvoice(deps: InvoicesDeps, companyId: CompanyId, id: number, input: InvoiceUpdate): Promise<void> {
  const inv = await loadDraft(deps, companyId, id);
  const customer =
    input.customer_id !== undefined && input.customer_id !== inv.customerId
      ? await assertCustomer(deps, companyId, input.customer_id)
      : undefined;
  await assertTemplate(deps, companyId, input.ftl_template_id);
  const start = input.benefit_period_start ?? inv.benefitPeriodStart;
  const end = input.benefit_period_end ?? inv.benefitPeriodEnd;
  if (start && end && start > end)
    throw invalidData('benefit period ends before it starts', [
      { path: 'benefit_period_end', message: 'must not be before benefit_period_start' },
    ]);
  const set: Partial<InvoiceDoc> = {
    customerId: input.customer_id,
    customerName: customer?.buyer?.name,
    format: input.invoice_format,
    number: input.invoice_number,
    templateId: input.ftl_template_id,
    taxTreatmentId: input.tax_treatment_id,
    benefitPeriodStart: input.benefit_period_start,
    benefitPeriodEnd: input.benefit_period_end,
    buyerReference: input.buyer_reference,
    ...metaFields(input.meta),
    note: input.note,
    updatedAt: deps.now(),
  };
  for (const k of Object.keys(set) as (keyof InvoiceDoc)[]) if (set[k] === undefined) delete set[k];
  // for the audit log, kept in the draft by the same write (stored with the change or not at all)
  const pending = heldEvents(
    eventMessage('invoice.changed.v1', companyId, {
      invoiceId: id,
      action: 'updated',
      fields: givenFields(input),
    }),
  );
  try {
    if (!(await deps.invoices.updateDraft(companyId, id, set, pending)))
      throw conflict(`invoice ${id} is no longer a draft`, 'INVOICE_NOT_DRAFT');
    // the draft cache's copy would be caught by its older updatedAt; gone at once, even one written in the same ms
    deps.drafts.forget(companyId, id);
    handOverHeld(deps, companyId, id, pending);
  } catch (err) {
    if (duplicateNumber(err)) throw conflict(`invoice number ${input.invoice_number} is already used`, 'DUPLICATE_INVOICE_NUMBER');
    throw err;
  }
}
