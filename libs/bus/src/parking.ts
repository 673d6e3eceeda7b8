import type { GetMessage } from 'amqplib';
import type { Session } from './connection';
import { copyProperties } from './consumer';
import { decodeEnvelope } from './envelope';
import { withoutBookkeeping } from './headers';
import { durableQueueOptions } from './queue-types';
import type { Runtime } from './runtime';
import type { Envelope } from './types';

const PEEK_LIMIT = 10_000;

/**
 * Read the parking queue without consuming it: basic.get on a throwaway channel, then close the channel,
 * which hands every unacked message back to the queue in its place. It answers once the queue counts them
 * again (see untilReady), so a replay right after a listing finds what was listed.
 */
export async function peekParked(rt: Runtime, parkingQueue: string): Promise<Envelope[]> {
  const session = await rt.cm.waitForSession(rt.publishTimeoutMs);
  const ch = await rt.cm.openChannel(session, 'parking-peek', false);
  const out: Envelope[] = [];
  let taken = 0;
  try {
    await rt.declared.queue(ch, parkingQueue, durableQueueOptions(rt.queueType));
    for (let i = 0; i < PEEK_LIMIT; i++) {
      const msg = await ch.get(parkingQueue, { noAck: false });
      if (msg === false) break;
      taken++;
      const decoded = decodeEnvelope(msg.content);
      if (decoded.ok) out.push(decoded.envelope);
      else rt.logger.warn({ queue: parkingQueue, error: decoded.error }, 'bus: unreadable parked message left in place');
    }
  } finally {
    await ch.close().catch(() => undefined);
  }
  if (taken > 0) await untilReady(rt, session, parkingQueue, taken);
  return out;
}

/** How long a listing waits for the messages it looked at to be counted in their queue again. */
const RETURN_TIMEOUT_MS = 5_000;

/**
 * Waits until `queue` counts at least `n` ready messages. Messages got without an ack go back to their queue when
 * the channel closes, but asynchronously: on a quorum queue (through its log) a passive declare right after the
 * close counted 0 in 5 of 100 tries (RabbitMQ 3.10), so a replay right after a listing moved nothing. Gives up
 * quietly after RETURN_TIMEOUT_MS (someone else may have replayed them meanwhile).
 */
async function untilReady(rt: Runtime, session: Session, queue: string, n: number): Promise<void> {
  const ch = await rt.cm.openChannel(session, 'parking-count', false);
  try {
    const deadline = Date.now() + RETURN_TIMEOUT_MS;
    while ((await ch.checkQueue(queue)).messageCount < n && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    await ch.close().catch(() => undefined);
  }
}

/**
 * Move what is parked now back to the work queue, attempt counter and error headers cleared, each move
 * confirmed before the parked copy is acked (a crash in between duplicates, never loses). Messages parked
 * again while this runs are not picked up a second time: at most the initial queue length is moved.
 */
export async function replayParked(rt: Runtime, parkingQueue: string, workQueue: string): Promise<number> {
  const session = await rt.cm.waitForSession(rt.publishTimeoutMs);
  const ch = await session.model.createConfirmChannel();
  rt.cm.guard(session, ch, 'parking-replay', false);
  try {
    await rt.declared.queue(ch, parkingQueue, durableQueueOptions(rt.queueType));
    const { messageCount } = await ch.checkQueue(parkingQueue);
    let moved = 0;
    for (let i = 0; i < messageCount; i++) {
      const msg: GetMessage | false = await ch.get(parkingQueue, { noAck: false });
      if (msg === false) break;
      await new Promise<void>((resolve, reject) => {
        ch.sendToQueue(
          workQueue,
          msg.content,
          { ...copyProperties(msg), headers: withoutBookkeeping(msg.properties.headers) },
          (err: unknown) => (err ? reject(err) : resolve()),
        );
      });
      ch.ack(msg);
      moved++;
    }
    rt.logger.info({ queue: workQueue, moved }, 'bus: replayed parked messages');
    return moved;
  } finally {
    await ch.close().catch(() => undefined);
  }
}
