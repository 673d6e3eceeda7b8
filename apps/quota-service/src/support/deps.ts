import type { AppBus, ServiceRuntime } from '@inv/runtime';
import type { Logger } from '@inv/service-kit';
import type { QuotaStore } from '../db/quota-store';

export interface QuotaDeps {
  store: QuotaStore;
  bus: AppBus;
  /** Change and announce in one transaction (outbox). */
  commit: ServiceRuntime['commit'];
  logger: Logger;
  /** Companies whose finalizations are counted but never limited (QUOTA_UNLIMITED_COMPANIES). */
  unlimited: ReadonlySet<string>;
}
