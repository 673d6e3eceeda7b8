import { createServiceRuntime } from '@inv/runtime';
import type { QuotaConfig } from './config';
import { onCompanyCreated } from './consumers/company.created';
import { onFinalizeFailed } from './consumers/invoice.finalize-failed';
import { quotaStore } from './db/quota-store';
import { quotaRoutes } from './http/quota.routes';
import { onQuotaReserve } from './rpc/quota.reserve';
import { onSetPlan } from './rpc/quota.set-plan';
import type { QuotaDeps } from './support/deps';

/** Plans and the monthly finalization quota. */
export async function createQuotaService(config: QuotaConfig) {
  const rt = await createServiceRuntime({ service: 'quota-service', database: 'invoicing_quota', port: config.PORT, env: config });
  const store = quotaStore(rt.conn);
  await Promise.all([store.usage.init(), store.plans.init()]);
  const deps: QuotaDeps = { store, bus: rt.bus, commit: rt.commit, logger: rt.logger, unlimited: config.QUOTA_UNLIMITED_COMPANIES };

  rt.bus.serveRpc('quota.reserve.v1', (msg) => onQuotaReserve(deps, msg));
  rt.bus.serveRpc('quota.set-plan.v1', (msg) => onSetPlan(deps, msg));
  // the plan a company starts with; changes are made here (quota.set-plan.v1) and announced from here
  rt.bus.onEvent('quota-plans', ['company.created.v1'], (msg) => onCompanyCreated(deps, msg));
  rt.bus.onEvent('quota-releases', ['invoice.finalize-failed.v1'], (msg) => onFinalizeFailed(deps, msg));
  rt.app.use(quotaRoutes(deps));

  return { runtime: rt, start: () => rt.start(), stop: () => rt.stop() };
}
