import type { CompanyId } from '@inv/contracts';
import { MONTHLY_LIMIT, monthKey, resetDate, type Plan } from '../domain/quota';
import { presentUsage } from '../http/presenters';
import type { QuotaDeps } from '../support/deps';
import { planOf } from './plan-of';

/** The limit of a company configured as unlimited. */
const UNLIMITED = 2 ** 31 - 1;

export const limitOf = (deps: QuotaDeps, companyId: CompanyId, plan: Plan) =>
  deps.unlimited.has(companyId) ? UNLIMITED : MONTHLY_LIMIT[plan];

/** Plan, finalizations used in the month of `at`, the limit and the reset date. */
export async function usageOf(deps: QuotaDeps, companyId: CompanyId, at: Date) {
  const plan = await planOf(deps, companyId);
  return presentUsage({
    plan,
    limit: limitOf(deps, companyId, plan),
    used: await deps.store.used(companyId, monthKey(at)),
    resetDate: resetDate(at),
  });
}
