export type Plan = 'free' | 'pro';

/** Finalizations per calendar month (specification, Limits). */
export const MONTHLY_LIMIT: Record<Plan, number> = { free: 3, pro: 100 };

/** Quota months are calendar months in UTC: "2026-11". */
export function monthKey(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** The first day of the next month, when the count starts again (YYYY-MM-DD). */
export function resetDate(at: Date): string {
  const next = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return next.toISOString().slice(0, 10);
}
