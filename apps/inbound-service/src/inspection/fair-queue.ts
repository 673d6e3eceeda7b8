/** One document waiting to be read. */
export interface QueuedDocument {
  companyId: string;
  id: number;
}

export interface FairQueue {
  /** Queues a document unless it is queued already or its company's or the whole queue's limit is reached (false). */
  push(companyId: string, id: number): boolean;
  /** The next document in turn: one of each company with documents waiting, in turn (round robin). */
  take(): QueuedDocument | undefined;
  readonly size: number;
}

/**
 * The received documents waiting for the validation worker, one FIFO per company served in turn: a company with
 * 1,000 documents waiting gets every other turn when another company sends one, never all of them. A Map keeps its
 * keys in insertion order, so it is the ring: the company served goes to its end at the next take (so a company
 * that sends a document while another's is read is next). Bounded (a document refused here
 * stays PROCESSING in MongoDB, where the periodic sweep finds it again once there is room), so that a company's
 * backlog costs memory per company, not per document.
 */
export function fairQueue(limits: { perCompany: number; total: number }): FairQueue {
  const queues = new Map<string, number[]>();
  const queued = new Set<string>();
  /** The company whose document was taken last, out of the ring until the next take. */
  let served: { companyId: string; ids: number[] } | undefined;
  const keyOf = (companyId: string, id: number) => `${companyId}:${id}`;
  return {
    push(companyId, id) {
      const key = keyOf(companyId, id);
      if (queued.has(key) || queued.size >= limits.total) return false;
      const q = queues.get(companyId) ?? (served?.companyId === companyId ? served.ids : undefined);
      if (q && q.length >= limits.perCompany) return false;
      if (q) q.push(id);
      else queues.set(companyId, [id]);
      queued.add(key);
      return true;
    },
    take() {
      // the company served last goes to the end of the ring now, behind the companies that came meanwhile
      if (served?.ids.length) queues.set(served.companyId, served.ids);
      served = undefined;
      const first = queues.entries().next();
      if (first.done) return undefined;
      const [companyId, q] = first.value;
      const id = q.shift()!;
      queues.delete(companyId);
      served = { companyId, ids: q };
      queued.delete(keyOf(companyId, id));
      return { companyId, id };
    },
    get size() {
      return queued.size;
    },
  };
}
