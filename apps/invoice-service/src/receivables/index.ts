/**
 * The face of the receivables feature (payments, bank statements, credit settlement, reminders, dunning): what other
 * features and the service's entry points may use. eslint.config.mjs refuses imports that reach past this file.
 */
export type { DunningDeps, PaymentDeps, ReceivablesDeps } from './deps';
// for the composition root: a payment recorded, or a credit note settled, inside a transaction of the invoices
// feature (the invoice changes with it), behind invoices' InvoiceSettlement port
export { invoiceSettlement } from './usecases/invoice-settlement';
export { amountToCents, centsToNumber, centsToText, openCentsOf, paymentStateOf, takesPayments } from './domain/payments';
// for the entry points: the daily reminder run, export-service's announcement
export { runReminders } from './usecases/run-reminders';
// for the presenters
export { LEVELS, REMINDER_PLACEHOLDERS } from './domain/dunning';
export type { ReminderSettingsView } from './usecases/get-reminder-settings';
export type { RunCounts } from './usecases/run-reminders';
export type { ReminderWithInvoice } from './usecases/list-company-reminders';
export { markPaymentsExported } from './usecases/mark-payments-exported';
// for the composition root and the presenters: repositories, document types (the routes are in routes.ts)
export { bankStatementsRepo } from './db/bank-statements';
export type { BankEntryDoc, BankStatementDoc } from './db/bank-statements';
export { paymentsRepo } from './db/payments';
export type { PaymentDoc } from './db/payments';
export { remindersRepo } from './db/reminders';
export type { ProposalDoc, ReminderDoc } from './db/reminders';
