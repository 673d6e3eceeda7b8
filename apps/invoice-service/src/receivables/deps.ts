import type { InvoicesDeps } from '../invoices';
import type { MailDeps } from '../mail';
import type { PlatformDeps } from '../platform';
import type { BankStatementsRepo } from './db/bank-statements';
import type { PaymentsRepo } from './db/payments';
import type { RemindersRepo } from './db/reminders';

/**
 * What the receivables feature (payments, bank statements, credit settlement, reminders, dunning) uses. It writes the
 * invoice's paid cents and status in the transaction that records the payment, so it has the invoices repository.
 */
export interface ReceivablesDeps extends PlatformDeps, Pick<InvoicesDeps, 'invoices'> {
  /** Payments of finalized invoices (usecases/record-payment.ts). */
  payments: PaymentsRepo;
  /** Uploaded camt.053 bank statements, their entries and match proposals (db/bank-statements.ts). */
  bankStatements: BankStatementsRepo;
  /** Reminders, the company's reminder settings, the daily run's proposals and claims (db/reminders.ts). */
  reminders: RemindersRepo;
}

/** What recording a payment inside another change's transaction needs (record-payment.ts recordPaymentIn). */
export type PaymentDeps = Pick<ReceivablesDeps, 'invoices' | 'payments' | 'now'>;

/** Reminders are e-mailed like invoices: dunning uses the mail feature too. */
export type DunningDeps = ReceivablesDeps & MailDeps;
