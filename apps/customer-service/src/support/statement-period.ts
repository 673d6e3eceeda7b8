import type { StatementQuery } from '@inv/contracts';
import type { CustomerDeps } from './deps';

/** Today's date (UTC) as the ledger compares it. */
export const today = (deps: CustomerDeps) => deps.now().toISOString().slice(0, 10);

/** Default period: the calendar year up to today (or up to `to`). */
export function periodOf(q: StatementQuery, todayIso: string): { from: string; to: string } {
  const to = q.to ?? todayIso;
  const from = q.from ?? `${to.slice(0, 4)}-01-01`;
  return { from, to: to < from ? from : to };
}
