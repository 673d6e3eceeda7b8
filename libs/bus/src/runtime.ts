import type { Channel } from 'amqplib';
import type { ConnectionManager, Session } from './connection';
import type { Names } from './naming';
import type { QueueType } from './queue-types';
import type { BusLogger } from './types';

/** State shared by the publisher, consumers, RPC and parking helpers of one bus. */
export interface Runtime {
  readonly service: string;
  readonly names: Names;
  readonly logger: BusLogger;
  readonly prefetch: number;
  readonly retryDelaysMs: readonly number[];
  readonly rpcTimeoutMs: number;
  readonly publishTimeoutMs: number;
  readonly queueType: QueueType;
  readonly cm: ConnectionManager;
  readonly declared: DeclaredNames;
  readonly inflight: InflightTracker;
  isStopping(): boolean;
}

/** Everything this bus declared, so deleteAll() removes exactly that. */
export class DeclaredNames {
  readonly queues = new Set<string>();
  readonly exchanges = new Set<string>();

  async exchange(ch: Channel, name: string, type: 'topic' | 'direct'): Promise<void> {
    await ch.assertExchange(name, type, { durable: true });
    this.exchanges.add(name);
  }

  async queue(ch: Channel, name: string, options: Parameters<Channel['assertQueue']>[1]): Promise<void> {
    await ch.assertQueue(name, options);
    this.queues.add(name);
  }
}

/** Handler runs in progress, so stop() can wait for them. */
export class InflightTracker {
  private readonly running = new Set<Promise<unknown>>();

  track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    const done = (): void => {
      this.running.delete(work);
    };
    work.then(done, done);
    return work;
  }

  get size(): number {
    return this.running.size;
  }

  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}

export function isSessionLive(session: Session): boolean {
  return !session.closed;
}
