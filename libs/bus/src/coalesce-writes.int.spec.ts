import type { Socket } from 'node:net';
import { connect, type ChannelModel } from 'amqplib';
import { amqpSocketOf, coalesceWrites } from './coalesce-writes';
import { AMQP_URL, testPrefix, waitFor } from '../test/support';

jest.setTimeout(30000);

const prefix = testPrefix();
const models: ChannelModel[] = [];
afterAll(async () => {
  for (const m of models) await m.close().catch(() => undefined);
});

/** Counts the batches the socket hands to the kernel: one system call each. */
function countBatches(socket: Socket): { batches: number } {
  const counter = { batches: 0 };
  const s = socket as unknown as { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void };
  const write = s._write.bind(socket);
  const writev = s._writev.bind(socket);
  s._write = (...a) => {
    counter.batches++;
    write(...a);
  };
  s._writev = (...a) => {
    counter.batches++;
    writev(...a);
  };
  return counter;
}

async function publishBurst(coalesce: boolean): Promise<{ batches: number; received: string[] }> {
  const model = await connect(AMQP_URL, { noDelay: true });
  models.push(model);
  const socket = amqpSocketOf(model);
  expect(socket).toBeDefined(); // the installed amqplib still keeps its socket where we look for it
  if (coalesce) coalesceWrites(socket!);
  const ch = await model.createChannel();
  const queue = `${prefix}.coalesce.${coalesce}`;
  await ch.assertQueue(queue, { autoDelete: false });
  const received: string[] = [];
  await ch.consume(queue, (m) => m && received.push(m.content.toString()), { noAck: true });
  const counter = countBatches(socket as Socket);
  for (let i = 0; i < 20; i++) ch.sendToQueue(queue, Buffer.from(String(i)));
  await waitFor(() => received.length === 20, 10000, '20 messages');
  const batches = counter.batches;
  await ch.deleteQueue(queue);
  await model.close();
  models.pop();
  return { batches, received };
}

describe('coalesceWrites on an amqplib connection', () => {
  it('sends a burst of publishes in fewer system calls, every message arriving once and in order', async () => {
    const plain = await publishBurst(false);
    const coalesced = await publishBurst(true);
    const order = Array.from({ length: 20 }, (_, i) => String(i));
    expect(plain.received).toEqual(order);
    expect(coalesced.received).toEqual(order);
    expect(plain.batches).toBeGreaterThanOrEqual(10);
    expect(coalesced.batches).toBeLessThanOrEqual(2);
  });
});
