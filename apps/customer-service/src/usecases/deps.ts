import type { Connection } from 'mongoose';
import type { Outbox, OutboxRelay } from '@inv/outbox';
import type { AppBus, Counters } from '@inv/runtime';
import type { CustomersRepo } from '../db/customers';
import type { LedgerRepo } from '../db/ledger';
import type { PaymentTermsRepo } from '../db/payment-terms';

export interface CustomerDeps {
  conn: Connection;
  customers: CustomersRepo;
  paymentTerms: PaymentTermsRepo;
  ledger: LedgerRepo;
  counters: Counters;
  outbox: Outbox;
  relay: () => OutboxRelay;
  bus: AppBus;
  /** Timeout of the RPCs this service makes (template existence, statement rendering). */
  rpcTimeoutMs: number;
  now: () => Date;
}
