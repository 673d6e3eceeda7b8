import { defaultRateOfTreatment, type InvoiceCreate, type InvoiceMeta, type InvoiceUpdate, type PositionCreate, type PositionUpdate } from '@inv/contracts';
import { AppError, conflict, invalidData, notFound } from '@inv/service-kit';
import type { InvoiceDoc, PositionDoc } from '../db/invoices';
import { isEditable } from '../domain/status-machine';
import { grossCentsOf, positionAmountErrors, totalsOf } from '../domain/totals';
import type { InvoiceDeps } from './deps';

export const MAX_POSITIONS = 1000;

/** A string meta is stored as it is, an object as JSON text beside it (no client keys become field names). */
function metaFields(meta: InvoiceMeta | undefined): Pick<InvoiceDoc, 'meta' | 'metaJson'> {
  if (meta === undefined) return {};
  return typeof meta === 'string' ? { meta, metaJson: null } : { meta: null, metaJson: JSON.stringify(meta) };
}

export async function loadInvoice(deps: InvoiceDeps, companyId: string, id: number): Promise<InvoiceDoc> {
  const inv = await deps.invoices.get(companyId, id);
  if (!inv) throw notFound(`invoice ${id}`);
  return inv;
}

export async function loadDraft(deps: InvoiceDeps, companyId: string, id: number): Promise<InvoiceDoc> {
  const inv = await loadInvoice(deps, companyId, id);
  if (!isEditable(inv.status) || inv.finalizingJobId) {
    throw conflict(`invoice ${id} is ${inv.finalizingJobId ? 'being finalized' : inv.status}; only drafts can be changed`, 'INVOICE_NOT_DRAFT');
  }
  return inv;
}

async function assertCustomer(deps: InvoiceDeps, companyId: string, customerId: number) {
  const answer = await deps.bus.callRpc('customer.billing-snapshot.v1', companyId, { customerId });
  if (!answer.found) throw invalidData(`customer ${customerId} does not exist`, [{ path: 'customer_id', message: 'unknown customer' }]);
  return answer;
}

async function assertTemplate(deps: InvoiceDeps, companyId: string, templateId: number | undefined) {
  if (templateId === undefined) return;
  const { exists } = await deps.bus.callRpc('document.template-exists.v1', companyId, { templateId });
  if (!exists) throw invalidData(`template ${templateId} does not exist`, [{ path: 'ftl_template_id', message: 'unknown template; see GET /template/' }]);
}

async function nextNumber(deps: InvoiceDeps, companyId: string): Promise<string> {
  const year = deps.now().getUTCFullYear();
  const seq = await deps.counters.next(`invoice-number:${companyId}:${year}`);
  return `RE-${year}-${String(seq).padStart(5, '0')}`;
}

function duplicateNumber(err: unknown): boolean {
  return (err as { code?: number }).code === 11000;
}

export async function createInvoice(deps: InvoiceDeps, companyId: string, input: InvoiceCreate): Promise<number> {
  const customer = await assertCustomer(deps, companyId, input.customer_id);
  await assertTemplate(deps, companyId, input.ftl_template_id);
  const id = await deps.counters.next('invoice');
  const now = deps.now();
  try {
    await deps.invoices.model.create({
      _id: id,
      companyId,
      customerId: input.customer_id,
      customerName: customer.buyer?.name,
      grossCents: 0,
      status: 'DRAFT',
      number: input.invoice_number ?? (await nextNumber(deps, companyId)),
      typeCode: '380',
      format: input.invoice_format ?? 'ZUGFERD',
      templateId: input.ftl_template_id ?? customer.defaultTemplateId,
      taxTreatmentId: input.tax_treatment_id,
      benefitPeriodStart: input.benefit_period_start,
      benefitPeriodEnd: input.benefit_period_end,
      buyerReference: input.buyer_reference ?? customer.buyerReference,
      ...metaFields(input.meta),
      note: input.note,
      positions: [],
      createdAt: now,
      updatedAt: now,
    });
  } catch (err) {
    if (duplicateNumber(err)) throw conflict(`invoice number ${input.invoice_number} is already used`, 'DUPLICATE_INVOICE_NUMBER');
    throw err;
  }
  return id;
}

export async function updateInvoice(deps: InvoiceDeps, companyId: string, id: number, input: InvoiceUpdate): Promise<void> {
  const inv = await loadDraft(deps, companyId, id);
  const customer = input.customer_id !== undefined && input.customer_id !== inv.customerId ? await assertCustomer(deps, companyId, input.customer_id) : undefined;
  await assertTemplate(deps, companyId, input.ftl_template_id);
  const start = input.benefit_period_start ?? inv.benefitPeriodStart;
  const end = input.benefit_period_end ?? inv.benefitPeriodEnd;
  if (start && end && start > end) throw invalidData('benefit period ends before it starts', [{ path: 'benefit_period_end', message: 'must not be before benefit_period_start' }]);
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
  try {
    const res = await deps.invoices.model.updateOne({ _id: id, companyId, status: 'DRAFT', finalizingJobId: { $exists: false } }, { $set: set });
    if (res.matchedCount === 0) throw conflict(`invoice ${id} is no longer a draft`, 'INVOICE_NOT_DRAFT');
  } catch (err) {
    if (duplicateNumber(err)) throw conflict(`invoice number ${input.invoice_number} is already used`, 'DUPLICATE_INVOICE_NUMBER');
    throw err;
  }
}

function toPosition(id: number, input: PositionCreate, invoiceTreatment: InvoiceDoc['taxTreatmentId']): PositionDoc {
  const treatment = input.tax_treatment_id ?? invoiceTreatment ?? 'standard';
  return {
    id,
    title: input.title,
    description: input.description,
    quantity: input.quantity,
    unitCode: input.unit_id.toUpperCase(),
    unitPrice: input.unit_net_amount,
    taxRate: input.tax_rate ?? defaultRateOfTreatment[treatment],
    taxTreatmentId: treatment,
    discountType: input.discount_type,
    discountValue: input.discount_value,
  };
}

function assertPositionAmounts(p: PositionDoc, clientLineAmount: string | undefined) {
  const errors = positionAmountErrors(p, clientLineAmount);
  if (errors.length > 0) throw invalidData(errors[0].message, errors);
}

/** Checks the positions still add up (e.g. a fixed discount above its line amount is refused). */
function assertComputable(positions: PositionDoc[]) {
  try {
    totalsOf(positions);
  } catch (err) {
    if (err instanceof RangeError) throw invalidData(err.message.replace(/^lines\[\d+\]\./, ''), [{ path: 'discount_value', message: err.message }]);
    throw err;
  }
}

/** Writes the new position list only if nobody changed the invoice meanwhile (optimistic check on updatedAt). */
async function savePositions(deps: InvoiceDeps, inv: InvoiceDoc, positions: PositionDoc[]) {
  assertComputable(positions);
  const res = await deps.invoices.model.updateOne(
    { _id: inv._id, companyId: inv.companyId, status: 'DRAFT', updatedAt: inv.updatedAt, finalizingJobId: { $exists: false } },
    { $set: { positions, grossCents: grossCentsOf(positions), updatedAt: deps.now() } },
  );
  if (res.matchedCount === 0) throw new AppError('conflict', 'the invoice changed meanwhile; retry the request', { code: 'CONCURRENT_MODIFICATION' });
}

export async function addPosition(deps: InvoiceDeps, companyId: string, invoiceId: number, input: PositionCreate): Promise<number> {
  const inv = await loadDraft(deps, companyId, invoiceId);
  if (inv.positions.length >= MAX_POSITIONS) throw invalidData(`an invoice has at most ${MAX_POSITIONS} positions`);
  const position = toPosition(0, input, inv.taxTreatmentId);
  assertPositionAmounts(position, input.single_net_amount);
  position.id = await deps.counters.next('position');
  await savePositions(deps, inv, [...inv.positions, position]);
  return position.id;
}

export async function updatePosition(deps: InvoiceDeps, companyId: string, invoiceId: number, positionId: number, input: PositionUpdate) {
  const inv = await loadDraft(deps, companyId, invoiceId);
  const index = inv.positions.findIndex((p) => p.id === positionId);
  if (index < 0) throw notFound(`position ${positionId}`);
  const old = inv.positions[index];
  const merged: PositionDoc = {
    ...old,
    title: input.title ?? old.title,
    description: input.description ?? old.description,
    quantity: input.quantity ?? old.quantity,
    unitCode: input.unit_id?.toUpperCase() ?? old.unitCode,
    unitPrice: input.unit_net_amount ?? old.unitPrice,
    taxTreatmentId: input.tax_treatment_id ?? old.taxTreatmentId,
    taxRate: input.tax_rate ?? (input.tax_treatment_id ? defaultRateOfTreatment[input.tax_treatment_id] : old.taxRate),
    discountType: input.discount_type ?? old.discountType,
    discountValue: input.discount_value ?? old.discountValue,
  };
  assertPositionAmounts(merged, input.single_net_amount);
  const positions = [...inv.positions];
  positions[index] = merged;
  await savePositions(deps, inv, positions);
}

export async function deletePosition(deps: InvoiceDeps, companyId: string, invoiceId: number, positionId: number) {
  const inv = await loadDraft(deps, companyId, invoiceId);
  if (!inv.positions.some((p) => p.id === positionId)) throw notFound(`position ${positionId}`);
  await savePositions(deps, inv, inv.positions.filter((p) => p.id !== positionId));
}

export async function reorderPositions(deps: InvoiceDeps, companyId: string, invoiceId: number, order: number[]) {
  const inv = await loadDraft(deps, companyId, invoiceId);
  const current = new Set(inv.positions.map((p) => p.id));
  if (order.length !== current.size || new Set(order).size !== order.length || !order.every((id) => current.has(id))) {
    throw invalidData('the order must list every position id of the invoice exactly once', [{ path: '(body)', message: `expected a permutation of [${[...current].join(', ')}]` }]);
  }
  const byId = new Map(inv.positions.map((p) => [p.id, p]));
  await savePositions(deps, inv, order.map((id) => byId.get(id) as PositionDoc));
}

export async function cancelInvoice(deps: InvoiceDeps, companyId: string, id: number) {
  const inv = await loadInvoice(deps, companyId, id);
  if (inv.status === 'CANCELLED') return; // irreversible and idempotent
  if (inv.status !== 'DRAFT' || inv.finalizingJobId) {
    throw conflict(`invoice ${id} is ${inv.status}; a finalized invoice is corrected with a credit note`, 'INVOICE_ALREADY_FINALIZED');
  }
  const res = await deps.invoices.model.updateOne(
    { _id: id, companyId, status: 'DRAFT', finalizingJobId: { $exists: false } },
    { $set: { status: 'CANCELLED', cancelledAt: deps.now(), updatedAt: deps.now() } },
  );
  if (res.matchedCount === 0) throw conflict(`invoice ${id} changed meanwhile`, 'CONCURRENT_MODIFICATION');
}

/** A new draft with copies of `source`'s positions (fresh position ids) and the given overrides. */
async function draftFrom(deps: InvoiceDeps, source: InvoiceDoc, fields: Pick<InvoiceDoc, 'number' | 'typeCode'> & Partial<InvoiceDoc>): Promise<number> {
  const newId = await deps.counters.next('invoice');
  const positions: PositionDoc[] = [];
  for (const p of source.positions) positions.push({ ...p, id: await deps.counters.next('position') });
  const now = deps.now();
  await deps.invoices.model.create({
    _id: newId,
    companyId: source.companyId,
    customerId: source.customerId,
    customerName: source.customerName,
    grossCents: source.grossCents,
    status: 'DRAFT',
    format: source.format,
    templateId: source.templateId,
    taxTreatmentId: source.taxTreatmentId,
    buyerReference: source.buyerReference,
    positions,
    createdAt: now,
    updatedAt: now,
    ...fields,
  });
  return newId;
}

export async function duplicateInvoice(deps: InvoiceDeps, companyId: string, id: number): Promise<number> {
  const inv = await loadInvoice(deps, companyId, id);
  return draftFrom(deps, inv, { number: await nextNumber(deps, companyId), typeCode: '380', meta: inv.meta, metaJson: inv.metaJson, note: inv.note });
}

/** A credit note (type 381) for a finalized invoice: a new draft with the same positions, referencing it. */
export async function createCreditNote(deps: InvoiceDeps, companyId: string, id: number): Promise<number> {
  const inv = await loadInvoice(deps, companyId, id);
  if (inv.typeCode === '381') throw conflict('a credit note cannot be credited again', 'INVALID_CREDIT_NOTE');
  if (!['OPEN', 'SENT', 'PAID'].includes(inv.status)) throw conflict(`invoice ${id} is ${inv.status}; only finalized invoices can be credited`, 'INVOICE_NOT_FINALIZED');
  const year = deps.now().getUTCFullYear();
  const seq = await deps.counters.next(`credit-note-number:${companyId}:${year}`);
  return draftFrom(deps, inv, {
    number: `GS-${year}-${String(seq).padStart(5, '0')}`,
    typeCode: '381',
    benefitPeriodStart: inv.benefitPeriodStart,
    benefitPeriodEnd: inv.benefitPeriodEnd,
    precedingInvoiceId: inv._id,
  });
}
