import { createHash } from 'node:crypto';
import type { CompanyId } from '@inv/contracts';
import { groupCommit } from '@inv/outbox';
import type { DeliveryDoc } from '../db/deliveries';
import type { EventDoc } from '../db/events';
import type { EndpointDoc } from '../db/endpoints';
import { mapBusEvent, resourceKeyOf, subscribes, type MappedEvent } from '../domain/event-mapping';
import type { Reservation, WebhookDeps } from '../support/deps';

/** The webhook event id of a bus event: derived from its envelope id, so a redelivery names the same event. */
export const eventIdOf = (envelopeId: string) => `evt_${createHash('sha256').update(envelopeId).digest('hex').slice(0, 24)}`;

type BusMessage = { id: string; type: string; companyId: CompanyId; occurredAt: string; data: unknown };
type Queued = {
  msg: BusMessage;
  mapped: MappedEvent;
  targets: EndpointDoc[];
  /** The worker's slots: these endpoints' deliveries are created leased to it and start without a claim. */
  reservation: Reservation;
  /** Set by the transaction that recorded it. */
  event?: EventDoc;
  deliveries?: DeliveryDoc[];
};

/**
 * Records the bus events an integrator may want: for each, the webhook event and one delivery per enabled endpoint
 * that subscribed to its type, in the transaction that records the bus event as processed (at least once, never
 * twice). The resource is read when the first delivery is prepared, not here.
 *
 * The events of one company that arrive together are recorded in one transaction (libs/outbox groupCommit, for the
 * round trips: a transaction per event cost five), each still recorded once by its envelope id.
 */
export function eventRecorder(deps: WebhookDeps): (msg: BusMessage) => Promise<void> {
  // a message that turns out recorded before (commitOnce skips it) keeps no event from an attempt that failed
  const queuedOf = new WeakMap<object, Queued>();
  const changes = {
    commitAllOnce: deps.commitAllOnce,
    commitOnce: async (...args: Parameters<WebhookDeps['commitOnce']>) => {
      const applied = await deps.commitOnce(...args);
      if (!applied) Object.assign(queuedOf.get(args[0])!, { event: undefined, deliveries: undefined });
      return applied;
    },
  };
  const record = groupCommit<Queued>(changes, {
    key: (q) => q.msg.companyId,
    inbox: (q) => q.msg,
    lingerMs: 20,
    async apply(batch, session) {
      const now = deps.now();
      // the next sequence number of each resource: one $inc per resource by its count, then the numbers in order
      const keys = batch.map((q) => `${q.msg.companyId}:${resourceKeyOf(q.mapped.resource)}`);
      const last = await deps.events.nextSequences(keys, session);
      const taken = new Map<string, number>();
      const counts = new Map<string, number>();
      for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
      const events = batch.map((q, i): EventDoc => {
        const k = keys[i]!;
        const n = (taken.get(k) ?? 0) + 1;
        taken.set(k, n);
        return {
          _id: eventIdOf(q.msg.id),
          companyId: q.msg.companyId,
          type: q.mapped.type,
          mapped: q.mapped,
          sequence: last.get(k)! - counts.get(k)! + n,
          occurredAt: new Date(q.msg.occurredAt),
        };
      });
      await deps.events.insertMany(
        events.map((e) => ({ ...e })),
        session,
      );
      const created = await deps.deliveries.insertMany(
        batch.flatMap((q, i) => {
          const leased = [...q.reservation.endpointIds];
          return q.targets.map((e) => {
            const mine = leased.indexOf(e._id);
            if (mine >= 0) leased.splice(mine, 1);
            return {
              companyId: q.msg.companyId,
              endpointId: e._id,
              eventId: events[i]!._id,
              eventType: q.mapped.type,
              status: 'pending' as const,
              attempts: 0,
              nextAttemptAt: now,
              ...(mine >= 0 ? { leaseUntil: q.reservation.leaseUntil, leaseOwner: q.reservation.owner } : {}),
              attemptLog: [],
              createdAt: now,
            };
          });
        }),
        session,
      );
      // kept for after the commit (a transaction retried from the start sets them again)
      batch.forEach((q, i) => {
        q.event = events[i];
        q.deliveries = created.filter((d) => d.eventId === events[i]!._id);
      });
    },
  });
  return async (msg) => {
    const mapped = mapBusEvent(msg.type, msg.data as Record<string, unknown>);
    if (!mapped) return;
    // most companies have no endpoint for most events: a cached read, and no transaction. The list read here (at most
    // a second old) is the one fanned out to: an endpoint created in that second starts with the next event.
    const targets = (await deps.endpoints.enabledCached(msg.companyId)).filter((e) => subscribes(e.eventTypes, mapped.type));
    if (!targets.length) return;
    const queued: Queued = {
      msg,
      mapped,
      targets,
      reservation: deps.reserve(
        msg.companyId,
        targets.map((e) => e._id),
      ),
    };
    queuedOf.set(msg, queued);
    try {
      await record(queued);
    } catch (err) {
      deps.adopt(queued.reservation, []);
      throw err;
    }
    // undefined: recorded before (a redelivery), nothing queued now
    if (!queued.event) return deps.adopt(queued.reservation, []);
    deps.events.remember(queued.event);
    const leased = (queued.deliveries ?? []).filter((d) => d.leaseOwner !== undefined);
    deps.adopt(queued.reservation, leased);
    // the rest (endpoints without a free slot now) are claimed as usual
    if (leased.length < targets.length) deps.wake(targets.map((e) => e._id));
  };
}
