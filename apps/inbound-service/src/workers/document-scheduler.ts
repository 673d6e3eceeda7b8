import { periodicTick } from '@inv/runtime';
import type { Logger } from '@inv/service-kit';
import type { DutyCycle } from '../inspection/duty-cycle';
import { fairQueue, type QueuedDocument } from '../inspection/fair-queue';

export interface DocumentScheduler {
  /** Queues a document to be read (its command arrived); a document queued already, or beyond the bounds, is left to the sweep. */
  enqueue(companyId: string, id: number): void;
  /** Queues what waits in MongoDB and nobody holds (at start, then every sweepMs): nothing accepted is ever left behind. */
  sweep(): Promise<void>;
  start(): Promise<void>;
  /** Takes nothing new and waits for the document being read. */
  stop(): Promise<void>;
}

/** What reading one document asks for afterwards: nothing, or another attempt after a while (a failure on our side). */
export type WorkOutcome = { retryAfterMs: number } | void;

export interface SchedulerOptions {
  /** One document at a time, each followed by its rest (inspection/duty-cycle.ts). */
  gate: DutyCycle;
  work(companyId: string, id: number): Promise<WorkOutcome>;
  /** The documents waiting in MongoDB that nobody holds (a bounded number per company). */
  waiting(): Promise<QueuedDocument[]>;
  logger: Logger;
  sweepMs: number;
  limits: { perCompany: number; total: number };
}

/**
 * The received documents' way to the validation worker. The `inbound.process-document.v1` command only queues its
 * document here and is acknowledged: the work queue is MongoDB (a PROCESSING document nobody holds a lease on), so
 * RabbitMQ's order (and its prefetch) never puts one company's backlog before another's document. In memory, a
 * round-robin queue per company (fair-queue.ts) picks the next document when the previous one and its rest are over;
 * the document is claimed with a lease in MongoDB before it is read (db/inbound-documents.ts `claim`), so of two
 * replicas (or a command and a sweep) only one reads it, and a holder that died leaves a lease that runs out.
 */
export function documentScheduler(opts: SchedulerOptions): DocumentScheduler {
  const queue = fairQueue(opts.limits);
  const timers = new Set<NodeJS.Timeout>();
  let busy = false;
  let stopped = false;
  let current: Promise<void> = Promise.resolve();

  const later = (doc: QueuedDocument, ms: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      scheduler.enqueue(doc.companyId, doc.id);
    }, ms);
    timer.unref();
    timers.add(timer);
  };

  const pump = () => {
    if (busy || stopped) return;
    const next = queue.take();
    if (!next) return;
    busy = true;
    current = (async () => {
      try {
        const outcome = await opts.gate.run(() => opts.work(next.companyId, next.id));
        if (outcome) later(next, outcome.retryAfterMs);
      } catch (err) {
        // MongoDB or the store failed around the reading: the document stays PROCESSING, its lease runs out, a sweep takes it up
        opts.logger.error(
          { err, companyId: next.companyId, inboundId: next.id },
          'inbound document: processing failed; retried after its lease',
        );
      }
      await opts.gate.idle(); // the rest after the work: the next document is picked when it may start
      busy = false;
      pump();
    })();
  };

  // the sweep for what waits in MongoDB: at start and every sweepMs, never two at once
  const sweeps = periodicTick({
    everyMs: opts.sweepMs,
    run: async () => {
      for (const d of await opts.waiting()) queue.push(d.companyId, d.id);
      pump();
    },
    onError: (err) => opts.logger.warn({ err }, 'inbound documents: the sweep for waiting documents failed; next time'),
  });

  const scheduler: DocumentScheduler = {
    enqueue(companyId, id) {
      if (stopped) return;
      queue.push(companyId, id);
      pump();
    },
    async sweep() {
      await sweeps.tick();
    },
    async start() {
      await sweeps.start();
    },
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await sweeps.stop();
      await current;
    },
  };
  return scheduler;
}
