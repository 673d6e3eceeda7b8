import type { PaymentTermUpdate } from '@inv/contracts';
import type { Emit } from '@inv/outbox';
import { eventMessage, type AppBus } from '@inv/runtime';
import { AppError, conflict } from '@inv/service-kit';
import type { ClientSession } from 'mongoose';
import type { CompanyDoc, PaymentTermDoc } from '../domain/company-doc';
import type { CompanyDeps } from './deps';

export type PaymentTermDeps = CompanyDeps & { bus: AppBus };

/**
 * Writes the new list only if nobody changed the terms meanwhile, and announces the whole list (customer-service
 * keeps it to check customers' payment_term_id) with the audit fact of what changed.
 */
export async function savePaymentTerms(
  deps: CompanyDeps,
  c: CompanyDoc,
  terms: PaymentTermDoc[],
  changed: { id: number; action: 'created' | 'updated' | 'deleted' },
) {
  return deps.commit((session, emit) => writePaymentTerms(deps, c, terms, changed, session, emit));
}

/** `savePaymentTerms` inside a caller's commit (one that answers what it stored); answers the company after. */
export async function writePaymentTerms(
  deps: CompanyDeps,
  c: CompanyDoc,
  terms: PaymentTermDoc[],
  changed: { id: number; action: 'created' | 'updated' | 'deleted' },
  session: ClientSession,
  emit: Emit,
) {
  const after = await deps.companies.setPaymentTerms(c._id, c.paymentTermsRev, terms, deps.now(), session);
  if (!after) throw conflict('the payment terms changed meanwhile; retry', 'CONCURRENT_MODIFICATION');
  emit(
    eventMessage('company.payment-terms-changed.v1', c._id, {
      rev: after.paymentTermsRev ?? 1,
      terms: terms.map((t) => ({ id: t.id, name: t.name, days: t.days })),
      changed,
    }),
  );
  return after;
}

export function applyPaymentTermUpdate(term: PaymentTermDoc, input: PaymentTermUpdate): PaymentTermDoc {
  const next = { ...term };
  if (input.name !== undefined) next.name = input.name;
  if (input.days !== undefined) next.days = input.days;
  if (input.discount !== undefined) next.discount = input.discount ?? undefined;
  if (input.text_de !== undefined) next.textDe = input.text_de || undefined;
  if (input.text_en !== undefined) next.textEn = input.text_en || undefined;
  if (next.discount && next.discount.days >= next.days) {
    throw new AppError('invalid_data', 'the discount period must be shorter than the term', {
      code: 'VALIDATION_ERROR',
      errors: [{ path: 'discount.days', message: `must be fewer than ${next.days} days` }],
    });
  }
  return next;
}
