import type { messages, StatementQuery } from '@inv/contracts';
import { toJsonNumber } from '@inv/money';
import { AppError } from '@inv/service-kit';
import type { z } from 'zod';
import { billingSnapshotOf, displayName } from '../domain/customer';
import { overviewOf, statementOf, type Bucket, type Statement } from '../domain/ledger';
import { loadCustomer } from './load-customer';
import type { CustomerDeps } from './deps';
import { askOrUnavailable } from './remote';

type RenderStatementRequest = z.input<(typeof messages.rpc)['document.render-statement.v1']['request']>;

const today = (deps: CustomerDeps) => deps.now().toISOString().slice(0, 10);

/** Default period: the calendar year up to today (or up to `to`). */
export function periodOf(q: StatementQuery, todayIso: string): { from: string; to: string } {
  const to = q.to ?? todayIso;
  const from = q.from ?? `${to.slice(0, 4)}-01-01`;
  return { from, to: to < from ? from : to };
}

export async function financialOverview(deps: CustomerDeps, companyId: string, customerId: number) {
  await loadCustomer(deps, companyId, customerId);
  const o = overviewOf(await deps.ledger.invoicesOf(companyId, customerId), today(deps));
  const bucket = (b: Bucket) => ({ total: toJsonNumber(b.total), count: b.count });
  return {
    customer_id: customerId,
    currency: 'EUR',
    outstanding: bucket(o.outstanding),
    overdue: bucket(o.overdue),
    paid: bucket(o.paid),
    credit_notes: bucket(o.creditNotes),
    balance: toJsonNumber(o.balance),
  };
}

export async function customerStatement(deps: CustomerDeps, companyId: string, customerId: number, q: StatementQuery) {
  const customer = await loadCustomer(deps, companyId, customerId);
  const { from, to } = periodOf(q, today(deps));
  return { customer, statement: statementOf(await deps.ledger.invoicesOf(companyId, customerId), from, to) };
}

export function presentStatement(customerId: number, s: Statement) {
  const num = (v: string | undefined) => (v === undefined ? null : toJsonNumber(v));
  return {
    customer_id: customerId,
    currency: 'EUR',
    from: s.from,
    to: s.to,
    opening_balance: toJsonNumber(s.openingBalance),
    entries: s.entries.map((e) => ({ date: e.date, document_number: e.documentNumber, type: e.type, debit: num(e.debit), credit: num(e.credit), balance: toJsonNumber(e.balance) })),
    closing_balance: toJsonNumber(s.closingBalance),
  };
}

/**
 * The statement as a PDF: the seller comes from account-service, document-service renders and stores
 * it and answers a presigned link. Either service missing or too slow -> 503.
 */
export async function statementPdf(deps: CustomerDeps, companyId: string, customerId: number, q: StatementQuery) {
  const { customer, statement } = await customerStatement(deps, companyId, customerId, q);
  const seller = await askOrUnavailable('the company profile (account-service)', () =>
    deps.bus.callRpc('account.seller-profile.v1', companyId, {}, { timeoutMs: deps.rpcTimeoutMs }),
  );
  if (!seller.found || !seller.seller) throw new AppError('conflict', 'the company profile is missing; complete it before printing statements', { code: 'COMPANY_PROFILE_MISSING' });
  const snapshot = billingSnapshotOf(customer);
  const buyer = snapshot.buyer ?? { name: displayName(customer), address: { line1: '', city: '', countryCode: 'DE' } };
  const request: RenderStatementRequest = {
    language: snapshot.language ?? 'de',
    currency: 'EUR',
    company: seller.seller,
    companyPayment: seller.payment,
    customer: { ...buyer, customerNumber: String(customer.customerNumber) },
    statementDate: statement.to,
    from: statement.from,
    to: statement.to,
    openingBalance: statement.openingBalance,
    entries: statement.entries,
    closingBalance: statement.closingBalance,
    template: customer.defaultTemplateId,
  };
  // Rendering a PDF takes longer than a lookup: allow it a few times the usual RPC budget.
  const answer = await askOrUnavailable('statement rendering (document-service)', () =>
    deps.bus.callRpc('document.render-statement.v1', companyId, request, { timeoutMs: deps.rpcTimeoutMs * 4 }),
  );
  return { url: answer.url, ...(answer.filename ? { filename: answer.filename } : {}), ...(answer.expiresInSeconds ? { expires_in: answer.expiresInSeconds } : {}) };
}
