export * from './api/common';
export * from './api/customers';
export * from './api/invoices';
export * from './api/tax';
export * from './vat-id';
export * from './messages/snapshot';
export * from './messages/registry';
