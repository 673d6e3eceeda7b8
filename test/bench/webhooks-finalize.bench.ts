/**
 * `npm run bench:webhooks-finalize`: what webhooks cost a finalization (the harness: finalize-under-load.ts). Phases
 * alternate between no webhook endpoint and 5 endpoints subscribed to `*` (a local receiver answering 204): none,
 * five, none, five (PHASES). Each invoice then causes 2 webhook events (invoice.created, invoice.finalized), 10
 * deliveries with five endpoints; a phase's CPU is read after its deliveries have all arrived. The target: p99 with
 * five endpoints within 10 % of none.
 *
 * Env: ENDPOINTS (5), and the harness's WARMUP, PER_PHASE, PHASES, LOG_LEVEL, PROFILE, PROFILE_TOP.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { env, finalizeUnderLoad, runBench, sleep } from './finalize-under-load';

const ENDPOINTS = Number(env('ENDPOINTS', '5'));

runBench(async () => {
  // the integrator: answers 204 at once
  let deliveries = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      deliveries++;
      res.writeHead(204).end();
    });
  });
  receiver.keepAliveTimeout = 60_000;
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const endpoints: string[] = [];
  try {
    await finalizeUnderLoad({
      mode: 'five',
      service: 'webhook',
      env: { WEBHOOKS_ALLOW_LOOPBACK: 'true' },
      async prepare({ must }, loaded) {
        if (!loaded) return;
        for (let i = 0; i < ENDPOINTS; i++)
          endpoints.push((await must('POST', '/webhook-endpoints/', { url: `${receiverUrl}/${i}`, event_types: ['*'] })).id as string);
        // the webhook consumer reads the company's endpoints through a cache of at most a second
        await sleep(1500);
      },
      async start(_sys, loaded) {
        const before = deliveries;
        // two events (created, finalized) per invoice to each endpoint
        const perInvoice = loaded ? 2 * ENDPOINTS : 0;
        return async (finalized) => {
          const expected = before + perInvoice * finalized;
          const deadline = Date.now() + 30_000;
          while (deliveries < expected && Date.now() < deadline) await sleep(50);
          if (deliveries < expected) console.warn(`  only ${deliveries - before} of ${expected - before} deliveries arrived`);
          return `deliveries ${deliveries - before}`;
        };
      },
      async cleanup({ must }) {
        if (!endpoints.length) return;
        for (const id of endpoints.splice(0)) await must('DELETE', `/webhook-endpoints/${id}`);
        await sleep(1500);
      },
      label: (loaded) => (loaded ? `${ENDPOINTS} endpoints` : 'no endpoint'),
    });
  } finally {
    await new Promise<void>((ok) => (receiver.closeAllConnections(), receiver.close(() => ok())));
  }
});
