import type { ClientSession, Connection } from 'mongoose';
import { AppError, currentIdempotentRequest, type IdempotentRequest } from '@inv/service-kit';
import { processedMessages } from './inbox';
import { IdempotencyKeyReused, requestJournal, UNREPLAYABLE } from './request-journal';
import type { Outbox, OutboxEntry, OutboxMessage } from './outbox';

/** Queues messages of the change being made; they are written with it and published after its commit. */
export type Emit = (...messages: OutboxMessage[]) => void;

/**
 * The ways a service changes its state and emits messages. Two are the default:
 * - `commit`: change state and emit (one transaction, messages via the outbox). Use it unless one of the
 *   exceptions below names your case.
 * - `publish`: emit without a write of this service (outbox, then the relay).
 * The exceptions, each for the reason given at its definition:
 * - `commitOnce`: a consumer's change, at most once per received message (redeliveries change nothing).
 * - `commitAllOnce`: `commitOnce` for a batch; the building block of `groupCommit`, not called by handlers.
 * - `groupCommit` (group-commit.ts): a busy consumer's small changes per company, batched into one transaction.
 * - messages held inside their document (pending.ts, `pushPending`): one single-document write instead of a
 *   transaction, for one document changed and announced often (the draft invoice).
 * - `bus.publishEvent`/`sendCommand` straight from a handler: services that keep no data of their own to commit
 *   with (document-service, vat-service) and the invitation e-mail, whose link must never be written to a document
 *   (the reasons are at those calls).
 */
export interface Changes {
  /**
   * The default. "Change and publish" in one call: runs `work` in a MongoDB transaction; the messages it emits are
   * written to the outbox in the same transaction (so they exist exactly when the change does) and the
   * relay is woken after the commit. A transaction retried after a conflict runs `work` again with no
   * messages from the failed attempt.
   */
  commit<T>(work: (session: ClientSession, emit: Emit) => Promise<T>): Promise<T>;
  /**
   * The default for emitting without a change: messages that follow no write of this service (or one already
   * committed): outbox, then the relay, so they survive a broker outage and are published in order with the rest.
   */
  publish(...messages: OutboxMessage[]): Promise<void>;
  /**
   * `commit` at most once per received message: its envelope id is recorded in the same transaction as the
   * change, so a redelivery (same id) changes nothing. Answers false for a message applied before.
   * Exception to `commit` for consumers whose change is not idempotent by itself (the bus delivers at least once).
   */
  commitOnce(
    msg: { id: string; companyId: string; type: string },
    work: (session: ClientSession, emit: Emit) => Promise<void>,
  ): Promise<boolean>;
  /**
   * `commitOnce` for several received messages in one transaction (a consumer applying a batch with one set of
   * round trips). Answers false, with nothing changed, when any of them was applied before: the caller then
   * applies them one by one with `commitOnce`, which skips that one.
   * Exception: the building block of `groupCommit` (group-commit.ts); a handler uses `groupCommit` or `commitOnce`.
   */
  commitAllOnce(
    msgs: Array<{ id: string; companyId: string; type: string }>,
    work: (session: ClientSession, emit: Emit) => Promise<void>,
  ): Promise<boolean>;
  /** Creates the collections and indexes (the outbox's and the record of processed messages). */
  init(): Promise<void>;
}

/**
 * `kick` wakes the relay with the entries just committed (see OutboxRelay.kick). When it answers a promise, `commit`
 * and `publish` return once it has settled (a service's own steps after a commit, such as announcing the change to
 * other services' caches before the client is answered).
 */
export function createChanges(conn: Connection, outbox: Outbox, kick: (committed: OutboxEntry[]) => void | Promise<void>): Changes {
  const processed = processedMessages(conn);
  const journal = requestJournal(conn);
  const transact = async <T>(work: (session: ClientSession, emit: Emit) => Promise<T>, request?: IdempotentRequest, index = 0) => {
    let result: T | undefined;
    let written: OutboxEntry[] = [];
    await conn.transaction(async (session) => {
      const messages: OutboxMessage[] = [];
      written = [];
      result = await work(session, (...m) => void messages.push(...m));
      if (messages.length) written = await outbox.add(messages, session);
      if (request) await journal.record(request, index, result, session);
    });
    if (written.length) await kick(written);
    return result as T;
  };
  const changes: Changes = {
    async commit<T>(work: (session: ClientSession, emit: Emit) => Promise<T>): Promise<T> {
      const request = currentIdempotentRequest();
      if (!request) return transact(work);
      // a request sent with an Idempotency-Key: its commits are journaled with their results, in their own
      // transactions; an earlier attempt's commit answers its result again and writes nothing (request-journal.ts)
      const index = request.commits++;
      if (index < request.replayed.length) {
        const replayed = request.replayed[index];
        if (replayed === UNREPLAYABLE)
          throw new AppError('conflict', 'this request was processed before, and its answer could not be kept; look the result up', {
            code: 'IDEMPOTENCY_IN_PROGRESS',
          });
        return replayed as T;
      }
      try {
        return await transact(work, request, index);
      } catch (err) {
        // the transaction wrote nothing: a use case that tries again within the request (a conflict) takes this index again
        request.commits = index;
        if (index > 0 || (err as { code?: number }).code !== 11000 || !/idempotency_journal/.test(String((err as Error).message)))
          throw err;
        // another attempt of the same request committed first: the client retries and gets that one's answer
        const other = await journal.find(request);
        if (other && other.fingerprint !== request.fingerprint) throw new IdempotencyKeyReused();
        throw new AppError('conflict', 'a request with this Idempotency-Key was processed meanwhile; retry it to get its answer', {
          code: 'IDEMPOTENCY_IN_PROGRESS',
        });
      }
    },
    async publish(...messages: OutboxMessage[]): Promise<void> {
      if (messages.length === 0) return;
      await kick(await outbox.add(messages));
    },
    async init() {
      await Promise.all([outbox.model.init(), processed.init(), journal.init()]);
    },
    commitOnce: (msg, work) => changes.commitAllOnce([msg], work),
    async commitAllOnce(msgs, work) {
      try {
        // a consumer's change: never part of a request's journal (its own inbox makes it happen once)
        await transact(async (session, emit) => {
          await processed.record(msgs, new Date(), session);
          await work(session, emit);
        });
        return true;
      } catch (err) {
        if ((err as { code?: number }).code === 11000) return false; // applied before (one of them, for several)
        throw err;
      }
    },
  };
  return changes;
}
