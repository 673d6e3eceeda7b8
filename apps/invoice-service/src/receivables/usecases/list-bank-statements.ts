import type { BankStatementListQuery, CompanyId } from '@inv/contracts';
import type { ReceivablesDeps } from '../deps';

/** GET /bank-statements/: the company's statements, newest first. */
export const listBankStatements = (deps: ReceivablesDeps, companyId: CompanyId, q: BankStatementListQuery) =>
  deps.bankStatements.list(companyId, q);
