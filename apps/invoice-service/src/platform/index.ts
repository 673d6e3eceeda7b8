/**
 * What every feature of invoice-service (invoices/, receivables/, mail/) runs on and nothing feature-specific: the
 * base deps type (the outbox commit, publish, the bus, counters, the object store, the clock), the copies of peers'
 * data, the per-key queue, the counters of per-company ids and the date and amount format of the texts. A feature
 * imports it through this file; it imports no feature.
 */
export type { PlatformDeps } from './deps';
export { peerData } from './peer-data';
export type { PeerData } from './peer-data';
export { oneAtATime } from './one-at-a-time';
export type { DownloadLink } from './download-link';
export { attachmentCounter, invoiceCounter, paymentCounter, productCounter } from './company-keys';
export { documentDate, euros } from './letter-format';
export type { Language } from './letter-format';
