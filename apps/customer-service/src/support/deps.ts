import type { Changes } from '@inv/outbox';
import type { AppBus, Counters } from '@inv/runtime';
import type { CustomersRepo } from '../db/customers';
import type { LedgerRepo } from '../db/ledger';
import type { PaymentTermsRepo } from '../db/payment-terms';

export interface CustomerDeps {
  customers: CustomersRepo;
  paymentTerms: PaymentTermsRepo;
  ledger: LedgerRepo;
  counters: Counters;
  /** A change and the messages it causes, committed together (the outbox). */
  commit: Changes['commit'];
  /** `commit` at most once per received message. */
  commitOnce: Changes['commitOnce'];
  /** `commitOnce` for a batch of received messages (groupCommit). */
  commitAllOnce: Changes['commitAllOnce'];
  bus: AppBus;
  /** Timeout of the RPCs this service makes (template existence, statement rendering). */
  rpcTimeoutMs: number;
  now: () => Date;
  /** Deletes the change tokens of cached billing data (libs/service-kit peer-data.ts); never throws. */
  invalidateBillingData: (keys: string[]) => Promise<void>;
}
