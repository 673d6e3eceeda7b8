import type { AppBus } from '@inv/runtime';
import type { Logger } from '@inv/service-kit';
import type { QuotaStore } from '../db/quota-store';

export interface QuotaDeps {
  store: QuotaStore;
  bus: AppBus;
  logger: Logger;
  /** Companies whose finalizations are counted but never limited (QUOTA_UNLIMITED_COMPANIES). */
  unlimited: ReadonlySet<string>;
}
