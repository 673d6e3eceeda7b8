import type { CompanyId, messages, StatementPdfQuery } from '@inv/contracts';
import { AppError } from '@inv/service-kit';
import type { z } from 'zod';
import { billingSnapshotOf, displayName } from '../domain/customer';
import { customerStatement } from './customer-statement';
import type { CustomerDeps } from '../support/deps';
import { askOrUnavailable } from '../support/remote';

type RenderStatementRequest = z.input<(typeof messages.rpc)['document.render-statement.v1']['request']>;

/**
 * The statement as a PDF, in the language asked for (default: the customer's): the seller comes from account-service,
 * document-service renders and stores it and answers a presigned link. Either service missing or too slow -> 503.
 */
export async function statementPdf(deps: CustomerDeps, companyId: CompanyId, customerId: number, q: StatementPdfQuery) {
  const { customer, statement } = await customerStatement(deps, companyId, customerId, q);
  const seller = await askOrUnavailable('the company profile (account-service)', () =>
    deps.bus.callRpc('account.seller-profile.v1', companyId, {}, { timeoutMs: deps.rpcTimeoutMs }),
  );
  if (!seller.found || !seller.seller)
    throw new AppError('conflict', 'the company profile is missing; complete it before printing statements', {
      code: 'COMPANY_PROFILE_MISSING',
    });
  const snapshot = billingSnapshotOf(customer);
  const buyer = snapshot.buyer ?? { name: displayName(customer), address: { line1: '', city: '', countryCode: 'DE' } };
  const request: RenderStatementRequest = {
    language: q.language ?? snapshot.language ?? 'de',
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
    // the letterhead as on the company's invoices
    logo: seller.logo,
  };
  // Rendering a PDF takes longer than a lookup: allow it a few times the usual RPC budget.
  const answer = await askOrUnavailable('statement rendering (document-service)', () =>
    deps.bus.callRpc('document.render-statement.v1', companyId, request, { timeoutMs: deps.rpcTimeoutMs * 4 }),
  );
  return {
    url: answer.url,
    ...(answer.filename ? { filename: answer.filename } : {}),
    ...(answer.expiresInSeconds ? { expires_in: answer.expiresInSeconds } : {}),
  };
}
