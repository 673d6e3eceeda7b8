import type { ClientSession, Connection } from 'mongoose';
import type { Outbox, OutboxMessage } from './outbox';

/** Queues messages of the change being made; they are written with it and published after its commit. */
export type Emit = (...messages: OutboxMessage[]) => void;

export interface Changes {
  /**
   * "Change and publish" in one call: runs `work` in a MongoDB transaction; the messages it emits are
   * written to the outbox in the same transaction (so they exist exactly when the change does) and the
   * relay is woken after the commit. A transaction retried after a conflict runs `work` again with no
   * messages from the failed attempt.
   */
  commit<T>(work: (session: ClientSession, emit: Emit) => Promise<T>): Promise<T>;
  /** Messages that follow no write of this service (or one already committed): outbox, then the relay. */
  publish(...messages: OutboxMessage[]): Promise<void>;
}

export function createChanges(conn: Connection, outbox: Outbox, kick: () => void): Changes {
  return {
    async commit<T>(work: (session: ClientSession, emit: Emit) => Promise<T>): Promise<T> {
      let result: T | undefined;
      let written = 0;
      await conn.transaction(async (session) => {
        const messages: OutboxMessage[] = [];
        result = await work(session, (...m) => void messages.push(...m));
        if (messages.length) await outbox.add(messages, session);
        written = messages.length;
      });
      if (written) kick();
      return result as T;
    },
    async publish(...messages: OutboxMessage[]): Promise<void> {
      if (messages.length === 0) return;
      await outbox.add(messages);
      kick();
    },
  };
}
