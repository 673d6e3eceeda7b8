import type { CompanyId } from '@inv/contracts';
import type { AppBus, ServiceRuntime } from '@inv/runtime';
import type { Logger } from '@inv/service-kit';
import type { DeliveryDoc, DeliveryStore } from '../db/deliveries';
import type { EndpointStore } from '../db/endpoints';
import type { EventStore } from '../db/events';
import type { Slot } from '../domain/fair-share';
import type { SecretBox } from '../domain/secrets';
import type { Resolve } from '../delivery/address-guard';
import type { FetchResource } from '../delivery/resource-fetcher';
import type { Sender } from '../delivery/sender';

export interface WebhookDeps {
  endpoints: EndpointStore;
  deliveries: DeliveryStore;
  events: EventStore;
  bus: AppBus;
  commit: ServiceRuntime['commit'];
  commitOnce: ServiceRuntime['commitOnce'];
  /** commitOnce for a batch: the building block of the group commit of recorded events (usecases/record-event.ts). */
  commitAllOnce: ServiceRuntime['commitAllOnce'];
  logger: Logger;
  /** Encrypts and decrypts the signing secrets at rest. */
  box: SecretBox;
  resolve: Resolve;
  sender: Sender;
  fetchResource: FetchResource;
  policy: { httpsOnly: boolean; allowLoopback: boolean };
  /** Delays between attempts (domain/retry-schedule.ts). */
  schedule: readonly number[];
  /** An endpoint failing for this long is disabled. */
  disableAfterMs: number;
  mailFrom: string;
  /** Wakes the delivery worker (after a commit that queued deliveries, for these endpoints when given). */
  wake(endpointIds?: readonly string[]): void;
  /** The delivery worker's slots for deliveries created already leased to it (workers/delivery-worker.ts). */
  reserve(companyId: CompanyId, endpointIds: readonly string[]): Reservation;
  adopt(reservation: Reservation, deliveries: DeliveryDoc[]): void;
  now(): Date;
}

export interface Reservation {
  endpointIds: string[];
  /** The worker's slots behind them (domain/fair-share.ts). */
  slots: Slot[];
  owner: string;
  leaseUntil: Date;
}
