import { createBus } from '@inv/bus';
import { messages } from '@inv/contracts';

/**
 * Operator tool for parking queues (deploy/README.md "Replay parked messages"). In the image:
 *   node dist/parking-cli/main.js list   <work queue>   parked messages of a work queue, as JSON lines
 *   node dist/parking-cli/main.js replay <work queue>   moves them back to the work queue (after the fix)
 * <work queue> is the full name (`inv.cmd.document.render-invoice.v1`, `inv.invoice-service.invoice-jobs`).
 * Reads AMQP_URL, BUS_PREFIX and BUS_QUEUE_TYPE like the services.
 */
async function main(): Promise<void> {
  const [verb, queue] = process.argv.slice(2);
  if (!['list', 'replay'].includes(verb ?? '') || !queue) throw new Error('usage: list|replay <work queue>');
  const prefix = process.env.BUS_PREFIX ?? 'inv';
  if (!queue.startsWith(`${prefix}.`)) throw new Error(`give the full work queue name, starting with ${prefix}.`);
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
  const bus = createBus(messages, {
    url: process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
    prefix,
    service: 'operator',
    logger: quiet,
    queueType: process.env.BUS_QUEUE_TYPE === 'classic' ? 'classic' : 'quorum',
  });
  await bus.start();
  try {
    if (verb === 'list') for (const envelope of await bus.parkedMessages(queue)) process.stdout.write(`${JSON.stringify(envelope)}\n`);
    else process.stdout.write(`replayed ${await bus.replayParked(queue)} message(s) to ${queue}\n`);
  } finally {
    await bus.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
