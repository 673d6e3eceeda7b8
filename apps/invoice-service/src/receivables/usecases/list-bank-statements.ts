import type { BankStatementListQuery, CompanyId } from '@inv/contracts';
import type { InvoiceDeps } from '../../platform/deps';

/** GET /bank-statements/: the company's statements, newest first. */
export const listBankStatements = (deps: InvoiceDeps, companyId: CompanyId, q: BankStatementListQuery) =>
  deps.bankStatements.list(companyId, q);
