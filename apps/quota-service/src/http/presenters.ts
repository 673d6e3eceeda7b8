import type { Plan } from '../domain/quota';

/** GET /quota/: the plan, the finalizations used in the month, its limit and the day it resets. */
export const presentUsage = (u: { plan: Plan; limit: number; used: number; resetDate: string }) => ({
  plan: u.plan,
  limit: u.limit,
  used: u.used,
  reset_date: u.resetDate,
});
