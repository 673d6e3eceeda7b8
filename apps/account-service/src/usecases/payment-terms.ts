import { MAX_PAYMENT_TERMS, type PaymentTermInput, type PaymentTermUpdate } from '@inv/contracts';
import { RpcTimeoutError } from '@inv/bus';
import { eventMessage, type AppBus } from '@inv/runtime';
import { AppError, conflict, notFound } from '@inv/service-kit';
import type { CompanyDoc, PaymentTermDoc } from '../db/companies';
import { defaultPaymentTerm, paymentTermsOf } from '../domain/payment-term-rules';
import type { CompanyDeps } from './company-profile';

export type PaymentTermDeps = CompanyDeps & { bus: AppBus };

async function load(deps: CompanyDeps, companyId: string): Promise<CompanyDoc> {
  const c = await deps.companies.byId(companyId);
  if (!c) throw notFound('company');
  return c;
}

/**
 * Writes the new list only if nobody changed the terms meanwhile, and announces the whole list (customer-service
 * keeps it to check customers' payment_term_id) with the audit fact of what changed.
 */
async function save(
  deps: CompanyDeps,
  c: CompanyDoc,
  terms: PaymentTermDoc[],
  changed: { id: number; action: 'created' | 'updated' | 'deleted' },
) {
  return deps.commit(async (session, emit) => {
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
  });
}

export async function listPaymentTerms(deps: CompanyDeps, companyId: string) {
  const c = await load(deps, companyId);
  return { company: c, terms: paymentTermsOf(c) };
}

export async function getPaymentTerm(deps: CompanyDeps, companyId: string, id: number) {
  const c = await load(deps, companyId);
  const term = paymentTermsOf(c).find((t) => t.id === id);
  if (!term) throw notFound(`payment term ${id}`);
  return { company: c, term };
}

function apply(term: PaymentTermDoc, input: PaymentTermUpdate): PaymentTermDoc {
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

export async function createPaymentTerm(deps: CompanyDeps, companyId: string, input: PaymentTermInput) {
  const c = await load(deps, companyId);
  const terms = paymentTermsOf(c);
  if (terms.length >= MAX_PAYMENT_TERMS)
    throw conflict(`a company keeps at most ${MAX_PAYMENT_TERMS} payment terms`, 'PAYMENT_TERM_LIMIT_REACHED');
  const term = apply({ id: Math.max(0, ...terms.map((t) => t.id)) + 1, name: input.name, days: input.days }, input);
  const after = await save(deps, c, [...terms, term], { id: term.id, action: 'created' });
  return { company: after, term };
}

export async function updatePaymentTerm(deps: CompanyDeps, companyId: string, id: number, input: PaymentTermUpdate) {
  const c = await load(deps, companyId);
  const terms = paymentTermsOf(c);
  const i = terms.findIndex((t) => t.id === id);
  if (i < 0) throw notFound(`payment term ${id}`);
  const term = apply(terms[i]!, input);
  terms[i] = term;
  const after = await save(deps, c, terms, { id, action: 'updated' });
  return { company: after, term };
}

/** DELETE: refused while customers use the term (409 with their count) or while it is the company's default. */
export async function deletePaymentTerm(deps: PaymentTermDeps, companyId: string, id: number) {
  const c = await load(deps, companyId);
  const terms = paymentTermsOf(c);
  if (!terms.some((t) => t.id === id)) throw notFound(`payment term ${id}`);
  if (defaultPaymentTerm(c)?.id === id) {
    throw new AppError('conflict', `payment term ${id} is the company's default; choose another default_payment_term_id first`, {
      code: 'PAYMENT_TERM_IN_USE',
      extra: { customers: 0, is_default: true },
    });
  }
  let customers: number;
  try {
    ({ customers } = await deps.bus.callRpc('customer.payment-term-usage.v1', companyId, { paymentTermId: id }));
  } catch (err) {
    if (err instanceof RpcTimeoutError)
      throw new AppError('unavailable', 'cannot check which customers use the payment term right now; retry later', {
        code: 'SERVICE_UNAVAILABLE',
      });
    throw err;
  }
  if (customers > 0) {
    throw new AppError(
      'conflict',
      `payment term ${id} is used by ${customers} customer${customers === 1 ? '' : 's'}; give them another payment_term_id first`,
      { code: 'PAYMENT_TERM_IN_USE', extra: { customers } },
    );
  }
  await save(
    deps,
    c,
    terms.filter((t) => t.id !== id),
    { id, action: 'deleted' },
  );
}
