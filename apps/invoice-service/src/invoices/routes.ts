/**
 * The routes of the invoices feature, for the composition root (invoice-service.ts) only: they are not part of the
 * feature's face (index.ts), so the service's presenters, which the routes use, can read the faces without a cycle.
 */
export { UPLOAD_PATHS, attachmentRoutes } from './http/attachments.routes';
export { invoiceRoutes } from './http/invoices.routes';
export { numberingRoutes } from './http/numbering.routes';
export { productRoutes } from './http/products.routes';
