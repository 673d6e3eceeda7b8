/**
 * The routes of the mail feature, for the composition root (invoice-service.ts) only: they are not part of the
 * feature's face (index.ts), so the service's presenters, which the routes use, can read the faces without a cycle.
 */
export { emailRoutes } from './http/emails.routes';
