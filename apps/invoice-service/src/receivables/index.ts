/**
 * The face of the receivables feature (payments, bank statements, credit settlement, reminders, dunning): what other
 * features and the service's entry points may use. eslint.config.mjs refuses imports that reach past this file.
 */
export type { DunningDeps, PaymentDeps, ReceivablesDeps } from './deps';
// a payment recorded, or a credit note settled, inside the caller's transaction (the invoice changes with it)
export { recordPaymentIn } from './usecases/record-payment';
export { settleCreditNoteIn } from './usecases/settle-credit-note';
export { amountToCents, centsToNumber, centsToText, openCentsOf, paymentStateOf, takesPayments } from './domain/payments';
// for the entry points: the daily reminder run, export-service's announcement
export { runReminders } from './usecases/run-reminders';
// for the presenters
export { LEVELS, REMINDER_PLACEHOLDERS } from './domain/dunning';
export type { ReminderSettingsView } from './usecases/get-reminder-settings';
export type { RunCounts } from './usecases/run-reminders';
export { markPaymentsExported } from './usecases/mark-payments-exported';
// for the composition root and the presenters: repositories, routes, document types
export { bankStatementsRepo } from './db/bank-statements';
export type { BankEntryDoc, BankStatementDoc } from './db/bank-statements';
export { paymentsRepo } from './db/payments';
export type { PaymentDoc } from './db/payments';
export { remindersRepo } from './db/reminders';
export type { ProposalDoc, ReminderDoc } from './db/reminders';
export { STATEMENT_UPLOAD_PATHS, bankStatementRoutes } from './http/bank-statements.routes';
export { paymentRoutes } from './http/payments.routes';
export { reminderRoutes } from './http/reminders.routes';
