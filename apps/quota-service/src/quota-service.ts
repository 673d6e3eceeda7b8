import { createServiceRuntime } from '@inv/runtime';
import { companyIdOf } from '@inv/service-kit';
import { quotaConfig, type QuotaConfig } from './config';
import { quotaStore } from './db/quota-store';
import { MONTHLY_LIMIT, monthKey, resetDate } from './domain/quota';

export { quotaConfig, type QuotaConfig };

/** The limit of a company configured as unlimited (QUOTA_UNLIMITED_COMPANIES). */
const UNLIMITED = 2 ** 31 - 1;

/** Plans and the monthly finalization quota. */
export async function createQuotaService(config: QuotaConfig) {
  const rt = await createServiceRuntime({ service: 'quota-service', database: 'invoicing_quota', port: config.PORT, env: config });
  const store = quotaStore(rt.conn);
  await Promise.all([store.usage.init(), store.plans.init()]);

  /**
   * The company's plan. Normally known from company.created / plan-changed events; a company whose event
   * has not arrived (on a first start it can be published before this service's queue exists, and a topic
   * exchange drops it) is asked of account-service once and recorded, instead of silently counting as Free.
   */
  const planOf = async (companyId: string) => {
    const known = await store.knownPlanOf(companyId);
    if (known) return known;
    try {
      const answer = await rt.bus.callRpc('account.company-plan.v1', companyId, {});
      if (answer.found && answer.plan) {
        await store.setPlan(companyId, answer.plan);
        return answer.plan;
      }
    } catch (err) {
      rt.logger.warn({ err, companyId }, 'plan of the company unknown and account-service not answering; counting it as Free');
    }
    return 'free' as const;
  };

  const limitOf = (companyId: string, plan: keyof typeof MONTHLY_LIMIT) => (config.QUOTA_UNLIMITED_COMPANIES.has(companyId) ? UNLIMITED : MONTHLY_LIMIT[plan]);

  const usageOf = async (companyId: string, at: Date) => {
    const plan = await planOf(companyId);
    return { plan, limit: limitOf(companyId, plan), used: await store.used(companyId, monthKey(at)), reset_date: resetDate(at) };
  };

  rt.bus.serveRpc('quota.reserve.v1', async (msg) => {
    const at = msg.data.at ? new Date(msg.data.at) : new Date();
    const plan = await planOf(msg.companyId);
    const limit = limitOf(msg.companyId, plan);
    const { granted, used } = await store.reserve(msg.companyId, monthKey(at), msg.data.reservationId, limit);
    return { granted, used, limit, reset_date: resetDate(at), plan };
  });
  rt.bus.serveRpc('quota.usage.v1', (msg) => usageOf(msg.companyId, msg.data.at ? new Date(msg.data.at) : new Date()));
  rt.bus.onEvent('quota-plans', ['company.created.v1', 'company.plan-changed.v1'], async (msg) => {
    await store.setPlan(msg.companyId, msg.data.plan);
  });
  rt.bus.onEvent('quota-releases', ['invoice.finalize-failed.v1'], async (msg) => {
    // The reservation id carries its month, so a failure reported after midnight on the 1st releases the right month.
    const month = msg.data.reservationId.split('@')[1] ?? monthKey(new Date(msg.occurredAt));
    await store.release(msg.companyId, month, msg.data.reservationId);
  });
  rt.app.get('/quota/', async (req, res) => {
    res.json(await usageOf(companyIdOf(req), new Date()));
  });

  return { runtime: rt, start: () => rt.start(), stop: () => rt.stop() };
}
