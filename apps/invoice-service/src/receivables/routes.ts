/**
 * The routes of the receivables feature, for the composition root (invoice-service.ts) only: they are not part of the
 * feature's face (index.ts), so the service's presenters, which the routes use, can read the faces without a cycle.
 */
export { STATEMENT_UPLOAD_PATHS, bankStatementRoutes } from './http/bank-statements.routes';
export { paymentRoutes } from './http/payments.routes';
export { reminderRoutes } from './http/reminders.routes';
