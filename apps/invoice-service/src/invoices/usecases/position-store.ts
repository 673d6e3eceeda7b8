/** How positions are built, checked and written (optimistically, only if the draft did not change meanwhile). */
import { defaultRateOfTreatment, type PositionCreate, type CompanyId } from '@inv/contracts';
import type { OutboxMessage } from '@inv/outbox';
import { AppError, currentIdempotentRequest, invalidData } from '@inv/service-kit';
import type { ClientSession } from 'mongoose';
import type { InvoiceDoc, PositionDoc } from '../db/invoices';
import { derivedValueWarnings, grossCentsOf, positionAmountErrors, totalsOf, type DerivedValueWarning } from '../domain/totals';
import type { InvoicesDeps } from '../deps';
import { handOverHeld, heldEvents } from '../db/held-events';
import { loadDraft } from './load-invoice';

export function toPosition(id: number, input: PositionCreate, invoiceTreatment: InvoiceDoc['taxTreatmentId']): PositionDoc {
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

/** Refuses a line amount beyond the bound; answers the warnings about derived values the service replaced. */
export function assertPositionAmounts(p: PositionDoc, clientLineAmount: string | undefined): DerivedValueWarning[] {
  const errors = positionAmountErrors(p);
  if (errors.length > 0) throw invalidData(errors[0].message, errors);
  return derivedValueWarnings(p, clientLineAmount);
}

/** Checks the positions still add up (e.g. a fixed discount above its line amount is refused). */
export function assertComputable(positions: PositionDoc[]) {
  try {
    totalsOf(positions);
  } catch (err) {
    if (err instanceof RangeError)
      throw invalidData(err.message.replace(/^lines\[\d+\]\./, ''), [{ path: 'discount_value', message: err.message }]);
    throw err;
  }
}

/**
 * Writes the new position list only if nobody changed the invoice meanwhile (optimistic check on updatedAt), with
 * the messages announcing the change kept in the draft by the same write (libs/outbox pending.ts: the change and its
 * audit event are stored together or not at all), then hands them to the relay.
 * Answers the invoice as written: the write matched `inv` exactly, so it need not be read again.
 */
export async function savePositions(
  deps: InvoicesDeps,
  inv: InvoiceDoc,
  positions: PositionDoc[],
  messages: OutboxMessage[],
  session?: ClientSession,
): Promise<InvoiceDoc> {
  assertComputable(positions);
  const set = { positions, grossCents: grossCentsOf(positions), updatedAt: deps.now() };
  const pending = heldEvents(...messages);
  if (!(await deps.invoices.setPositions(inv.companyId, inv.id, inv, set, pending, session)))
    throw new AppError('conflict', 'the invoice changed meanwhile; retry the request', { code: 'CONCURRENT_MODIFICATION' });
  // in a caller's transaction the messages are handed over by the caller once it committed
  if (!session) handOverHeld(deps, inv.companyId, inv.id, pending);
  const { pendingMessages: _pending, ...written } = inv; // the copy kept and answered carries no messages
  return { ...written, ...set, ...(session ? { pendingMessages: pending } : {}) };
}

/**
 * A change of a draft's positions: `change` gets the draft and answers the new list, a value for the caller and the
 * messages announcing the change (written with it), or throws (404, 422); the list is written only if the draft did not change meanwhile (`savePositions`).
 * The draft is the copy this process wrote last (`deps.drafts`, see draft-cache.ts) when it has one, so adding
 * one position after the other costs no read each. Whatever fails on a copy (the conditional write missing it,
 * or an error decided on it) is done once more on the draft as stored: a stale copy never reaches the client.
 */
export async function changePositions<T>(
  deps: InvoicesDeps,
  companyId: CompanyId,
  invoiceId: number,
  /** Every change of the positions is announced for the audit log: `messages` are written with it. */
  change: (inv: InvoiceDoc) => Promise<{ positions: PositionDoc[]; value: T; messages: OutboxMessage[] }>,
): Promise<{ invoice: InvoiceDoc; value: T }> {
  const attempt = async (inv: InvoiceDoc) => {
    const { positions, value, messages } = await change(inv);
    if (currentIdempotentRequest()) return journaled(inv, positions, value, messages);
    const invoice = await savePositions(deps, inv, positions, messages);
    deps.drafts.remember(invoice);
    return { invoice, value };
  };
  /**
   * A request sent with an Idempotency-Key: the same write as a commit, so that it is journaled with its result
   * (libs/outbox request-journal.ts); a retry after a lost answer gets that result and writes nothing.
   */
  const journaled = async (inv: InvoiceDoc, positions: PositionDoc[], value: T, messages: OutboxMessage[]) => {
    let wrote: InvoiceDoc | undefined;
    const result = await deps.commit(async (session) => {
      wrote = await savePositions(deps, inv, positions, messages, session);
      const { pendingMessages: _pending, ...invoice } = wrote;
      const answered: InvoiceDoc = invoice;
      return { invoice: answered, value };
    });
    if (wrote) {
      handOverHeld(deps, inv.companyId, inv.id, wrote.pendingMessages ?? []);
      deps.drafts.remember(result.invoice);
    }
    return result;
  };
  const copy = deps.drafts.get(companyId, invoiceId);
  if (copy) {
    try {
      return await attempt(copy);
    } catch (err) {
      deps.drafts.forget(companyId, invoiceId);
      if (!(err instanceof AppError)) throw err;
    }
  }
  try {
    return await attempt(await loadDraft(deps, companyId, invoiceId));
  } catch (err) {
    deps.drafts.forget(companyId, invoiceId);
    throw err;
  }
}
