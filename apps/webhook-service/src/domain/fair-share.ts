/**
 * How one replica's delivery slots are shared between companies (pure: counts in memory, no I/O).
 *
 * - At most `endpoint` deliveries in flight per endpoint, `company` per company and `global` in all. The company
 *   limit is kept at most half of the replica's: one company's receivers never hold every slot.
 * - An endpoint whose attempt has run for the slow threshold (a quarter of the timeout) is slow, from that moment
 *   until one of its attempts answers in less: a company's slow endpoints share at most `slowCompany` slots (a quarter of its limit), and the slow
 *   endpoints of all companies at most `slowGlobal` (half the replica's). So a company whose receivers do not
 *   answer keeps few slots, and however many companies do so, the others keep at least half of the replica.
 *
 * Written by hand: it is a handful of counters that the claim query must see (`blocked`), which no pool library
 * exposes.
 */

export interface FairLimits {
  global: number;
  endpoint: number;
  company: number;
  slowCompany: number;
  slowGlobal: number;
}

/** The limits from the configured ones: per company at most half the replica's, the slow shares derived. */
export function fairLimits(opts: { global: number; endpoint: number; company: number }): FairLimits {
  const half = Math.max(1, Math.floor(opts.global / 2));
  const company = Math.max(1, Math.min(opts.company, half));
  return {
    global: opts.global,
    endpoint: opts.endpoint,
    company,
    slowCompany: Math.max(1, Math.floor(company / 4)),
    slowGlobal: half,
  };
}

/** One delivery slot taken; `slow` says which counters it holds (slow from the start, or since `slowDown`). */
export interface Slot {
  readonly companyId: string;
  readonly endpointId: string;
  slow: boolean;
}

/** Most slow endpoints remembered (the oldest marked is forgotten first); bounds the memory under any load. */
export const MAX_SLOW_REMEMBERED = 10_000;

export function fairShare(limits: FairLimits, maxSlowRemembered = MAX_SLOW_REMEMBERED) {
  let total = 0;
  let slowTotal = 0;
  const perEndpoint = new Map<string, number>();
  const perCompany = new Map<string, number>();
  const slowPerCompany = new Map<string, number>();
  /** slow endpoint → its company */
  const slowEndpoints = new Map<string, string>();

  const get = (m: Map<string, number>, k: string) => m.get(k) ?? 0;
  const add = (m: Map<string, number>, k: string, d: number) => {
    const n = get(m, k) + d;
    if (n > 0) m.set(k, n);
    else m.delete(k);
  };
  const slowFull = (companyId: string) => slowTotal >= limits.slowGlobal || get(slowPerCompany, companyId) >= limits.slowCompany;

  const canTake = (companyId: string, endpointId: string) =>
    total < limits.global &&
    get(perEndpoint, endpointId) < limits.endpoint &&
    get(perCompany, companyId) < limits.company &&
    !(slowEndpoints.has(endpointId) && slowFull(companyId));

  /** An attempt of the endpoint ended: `slow` when it timed out or took the slow threshold or longer. */
  const observe = (companyId: string, endpointId: string, slow: boolean): void => {
    slowEndpoints.delete(endpointId); // marked again: the newest, forgotten last
    if (!slow) return;
    slowEndpoints.set(endpointId, companyId);
    if (slowEndpoints.size > maxSlowRemembered) slowEndpoints.delete(slowEndpoints.keys().next().value!);
  };

  return {
    limits,
    canTake,
    /** Takes a slot for a delivery of this endpoint, or undefined when a limit says no. */
    take(companyId: string, endpointId: string): Slot | undefined {
      if (!canTake(companyId, endpointId)) return undefined;
      const slow = slowEndpoints.has(endpointId);
      total++;
      add(perEndpoint, endpointId, 1);
      add(perCompany, companyId, 1);
      if (slow) {
        slowTotal++;
        add(slowPerCompany, companyId, 1);
      }
      return { companyId, endpointId, slow };
    },
    release(slot: Slot): void {
      total--;
      add(perEndpoint, slot.endpointId, -1);
      add(perCompany, slot.companyId, -1);
      if (slot.slow) {
        slowTotal--;
        add(slowPerCompany, slot.companyId, -1);
      }
    },
    /**
     * The attempt holding this slot has run for the slow threshold: its endpoint is slow from now on, and the slot
     * counts in the slow shares until it is released (so the company's other slow endpoints wait, not the others).
     */
    slowDown(slot: Slot): void {
      if (!slot.slow) {
        slot.slow = true;
        slowTotal++;
        add(slowPerCompany, slot.companyId, 1);
      }
      observe(slot.companyId, slot.endpointId, true);
    },
    /** An attempt of the endpoint ended: `slow` when it timed out or took the slow threshold or longer. */
    observe,
    isSlow: (endpointId: string) => slowEndpoints.has(endpointId),
    /** Slots left in the replica. */
    free: () => limits.global - total,
    /** Slots left to this endpoint by its own limit (the others are checked when it is taken). */
    endpointFree: (endpointId: string) => limits.endpoint - get(perEndpoint, endpointId),
    /**
     * What a claim must skip: endpoints at their limit (slow ones whose company's or the replica's slow share is
     * used up among them) and companies at theirs. A claim that skips nothing and finds nothing found all there was.
     */
    blocked(): { endpoints: string[]; companies: string[] } {
      const endpoints: string[] = [];
      for (const [id, n] of perEndpoint) if (n >= limits.endpoint) endpoints.push(id);
      if (slowEndpoints.size) {
        const allSlow = slowTotal >= limits.slowGlobal;
        for (const [id, companyId] of slowEndpoints)
          if ((allSlow || get(slowPerCompany, companyId) >= limits.slowCompany) && get(perEndpoint, id) < limits.endpoint)
            endpoints.push(id);
      }
      const companies: string[] = [];
      for (const [id, n] of perCompany) if (n >= limits.company) companies.push(id);
      return { endpoints, companies };
    },
    stats: () => ({ inFlight: total, slowInFlight: slowTotal, slowEndpoints: slowEndpoints.size, companies: perCompany.size }),
    inFlightOf: (companyId: string) => get(perCompany, companyId),
  };
}
export type FairShare = ReturnType<typeof fairShare>;
