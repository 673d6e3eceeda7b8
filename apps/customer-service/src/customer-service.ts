import { createCounters, createServiceRuntime } from '@inv/runtime';
import { connectRedis, invalidatePeerData } from '@inv/service-kit';
import { finalizedInvoiceBooker } from './consumers/invoice.finalized';
import { onInvoiceStatusChanged } from './consumers/invoice.status-changed';
import { onPaymentEvent } from './consumers/invoice.payments';
import { onReminderIssued } from './consumers/invoice.reminder-issued';
import { onVatChecked } from './consumers/vat.checked';
import { customersRepo } from './db/customers';
import { ledgerRepo } from './db/ledger';
import { paymentTermsRepo } from './db/payment-terms';
import { addressRoutes } from './http/addresses.routes';
import { customerRoutes } from './http/customers.routes';
import { financeRoutes } from './http/finance.routes';
import { onBillingSnapshot } from './rpc/customer.billing-snapshot';
import { onPaymentTermUsage } from './rpc/customer.payment-term-usage';
import { onPaymentTermsChanged } from './consumers/company.payment-terms-changed';
import type { CustomerConfig } from './config';
import type { CustomerDeps } from './support/deps';
import { billingDataTokens } from './domain/peer-data-changes';

export { customerConfig, type CustomerConfig } from './config';

/** Customers, addresses, VAT status, the customer ledger with statements and financial overview. */
export async function createCustomerService(config: CustomerConfig) {
  const rt = await createServiceRuntime({ service: 'customer-service', database: 'invoicing_customer', port: config.PORT, env: config });
  // invoice-service keeps copies of customers' billing data: a change makes them stale before its request is answered.
  // Not a readiness condition: without Redis, invoice-service asks for billing data every time.
  const redis = connectRedis(config.REDIS_URL, config.REDIS_PREFIX);
  redis.on('error', () => undefined); // invalidatePeerData logs what failed
  const invalidate = (keys: string[]) => invalidatePeerData(redis, keys, rt.logger);
  rt.afterCommit((committed) => invalidate(billingDataTokens(committed)));
  const customers = customersRepo(rt.conn);
  const paymentTerms = paymentTermsRepo(rt.conn);
  const ledger = ledgerRepo(rt.conn);
  await Promise.all([customers.init(), paymentTerms.init(), ledger.init()]);
  const deps: CustomerDeps = {
    customers,
    paymentTerms,
    ledger,
    counters: createCounters(rt.conn),
    commit: rt.commit,
    commitOnce: rt.commitOnce,
    commitAllOnce: rt.commitAllOnce,
    bus: rt.bus,
    rpcTimeoutMs: config.RPC_TIMEOUT_MS,
    now: () => new Date(),
    invalidateBillingData: invalidate,
  };

  rt.app.use(customerRoutes(deps));
  rt.app.use(addressRoutes(deps));
  rt.app.use(financeRoutes(deps));

  rt.bus.serveRpc('customer.billing-snapshot.v1', (msg) => onBillingSnapshot(deps, msg));
  rt.bus.serveRpc('customer.payment-term-usage.v1', (msg) => onPaymentTermUsage(deps, msg));
  rt.bus.onEvent('customer-payment-terms', ['company.payment-terms-changed.v1'], (msg) => onPaymentTermsChanged(deps, msg));
  rt.bus.onEvent('customer-vat-status', ['vat.checked.v1'], (msg) => onVatChecked(deps, msg));
  const bookFinalized = finalizedInvoiceBooker(deps);
  const ledgerEvents = [
    'invoice.finalized.v1' as const,
    'invoice.status-changed.v1' as const,
    'invoice.payment-recorded.v1' as const,
    'invoice.payment-reversed.v1' as const,
    'invoice.reminder-issued.v1' as const,
  ];
  rt.bus.onEvent('customer-ledger', ledgerEvents, async (msg) => {
    switch (msg.type) {
      case 'invoice.finalized.v1':
        return bookFinalized(msg);
      case 'invoice.status-changed.v1':
        return onInvoiceStatusChanged(deps, msg);
      case 'invoice.payment-recorded.v1':
      case 'invoice.payment-reversed.v1':
        return onPaymentEvent(deps, msg);
      case 'invoice.reminder-issued.v1':
        return onReminderIssued(deps, msg);
    }
  });

  return {
    runtime: rt,
    deps,
    start: () => rt.start(),
    async stop() {
      await rt.stop();
      redis.disconnect();
    },
  };
}
