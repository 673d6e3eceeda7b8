import type { ObjectStore } from '@inv/objects';
import type { Changes, HeldEntry } from '@inv/outbox';
import type { AppBus, Counters } from '@inv/runtime';
import type { PeerData } from './peer-data';

/**
 * What every feature of invoice-service runs on (the base of each feature's deps type: invoices/deps.ts,
 * receivables/deps.ts, mail/deps.ts). The composition root (invoice-service.ts) builds one object with all of them.
 */
export interface PlatformDeps {
  /** Attachment bytes, rendered documents, reminder PDFs. */
  objects: ObjectStore;
  counters: Counters;
  /** A change and the messages it causes, committed together (the outbox). */
  commit: Changes['commit'];
  /** Messages that follow no write of this service: outbox, then the relay. */
  publish: Changes['publish'];
  /** Messages kept in an invoice with its change (invoices/db/held-events.ts), handed to the relay once written. */
  handOver: (entries: HeldEntry[]) => void;
  bus: AppBus;
  /** The seller profile and customers' billing data, from copies while they are current (peer-data.ts). */
  peers: PeerData;
  now: () => Date;
}
