import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { freeServicesPortOffset, spawnService, stopService, waitReady, type RunningService } from '@inv/runtime';
import { deleteBrokerObjects, serviceCaller, testEnv, testMongo, uniquePrefix, waitFor } from '@inv/testing';
import { webhookConfig } from './config';
import { startReceiver, type Receiver } from './testing/receiver';
import { createWebhookService } from './webhook-service';

jest.setTimeout(120_000);

describe('webhook-service: DNS rebinding and kill -9', () => {
  let mongo: Awaited<ReturnType<typeof testMongo>>;
  let receiver: Receiver;
  const prefixes: string[] = [];

  beforeAll(async () => {
    mongo = await testMongo();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    for (const p of prefixes) await deleteBrokerObjects(p);
    await mongo?.stop();
  });

  it('checks the address again at connect time: a name that resolved to a public address and now to 127.0.0.1 is refused', async () => {
    const prefix = uniquePrefix('whr');
    prefixes.push(prefix);
    let answer = '93.184.216.34';
    const service = await createWebhookService(
      webhookConfig.parse(
        testEnv(prefix, mongo.uri, { WEBHOOKS_ALLOW_LOOPBACK: 'false', WEBHOOK_POLL_MS: '50', WEBHOOK_RETRY_SCHEDULE_MS: '60000' }),
      ),
      { resolve: async (host) => (host.endsWith('.test') ? [{ address: answer, family: 4 }] : []) },
    );
    try {
      const base = (await service.start()).url;
      const call = serviceCaller(() => base, 'cmp_rebind');
      expect((await call('POST', '/webhook-endpoints/', { url: receiver.url(), event_types: ['*'] })).body.error_code).toBe(
        'WEBHOOK_URL_NOT_ALLOWED',
      );
      const created = await call('POST', '/webhook-endpoints/', { url: `http://rebind.test:${receiver.port}/rebind`, event_types: ['*'] });
      expect(created.status).toBe(201);
      answer = '127.0.0.1';
      await call('POST', `/webhook-endpoints/${created.body.id}/test`);
      const delivery = await waitFor(
        async () =>
          (await call('GET', `/webhook-endpoints/${created.body.id}/deliveries`)).body.deliveries.find((d: any) => d.attempts > 0),
        { what: 'refused attempt' },
      );
      expect(delivery).toMatchObject({ status: 'pending', last_error: 'address_not_allowed', last_http_status: null });
      expect(receiver.received.filter((r) => r.path === '/rebind')).toHaveLength(0);
    } finally {
      await service.stop();
    }
  });

  it('loses nothing when the service is killed mid-delivery: after the restart the delivery is sent again under the same webhook-id', async () => {
    const prefix = uniquePrefix('whk');
    prefixes.push(prefix);
    const env = testEnv(prefix, mongo.uri, {
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_TIMEOUT_MS: '3000',
      // a killed worker's delivery is taken again after this
      WEBHOOK_LEASE_MS: '1500',
    });
    const portOffset = await freeServicesPortOffset();
    const spawn = () =>
      spawnService('webhook', {
        root: join(__dirname, '../../..'),
        services: ['webhook'],
        env: { ...process.env, ...env, PORT: '' },
        portOffset,
        stdio: 'ignore',
      });
    let svc: RunningService | undefined = spawn();
    try {
      await waitReady(svc, 60_000);
      const call = serviceCaller(() => svc!.url, 'cmp_kill');
      // the first request is held open (the receiver is mid-work when the sender dies); later ones are answered
      let first = true;
      receiver.setAnswer((r, res) => {
        if (r.path === '/kill' && first) {
          first = false;
          return;
        }
        res.writeHead(204).end();
      });
      const created = await call('POST', '/webhook-endpoints/', { url: receiver.url('/kill'), event_types: ['*'] });
      const test = await call('POST', `/webhook-endpoints/${created.body.id}/test`);
      await waitFor(() => receiver.received.some((r) => r.path === '/kill'), { what: 'first attempt' });
      svc.child.kill('SIGKILL');
      await new Promise((resolve) => svc!.child.once('exit', resolve));
      svc = spawn();
      await waitReady(svc, 60_000);
      const hits = await waitFor(
        () => receiver.received.filter((r) => r.path === '/kill').length >= 2 && receiver.received.filter((r) => r.path === '/kill'),
        {
          what: 'redelivery after the restart',
        },
      );
      expect(hits.map((h) => h.headers['webhook-id'])).toEqual([test.body.event_id, test.body.event_id]);
      expect(hits[1]!.body).toBe(hits[0]!.body);
      expect(new Webhook(created.body.secret).verify(hits[1]!.body, hits[1]!.headers as Record<string, string>)).toMatchObject({
        type: 'ping',
      });
      const delivered = await waitFor(
        async () => {
          const [d] = (await call('GET', `/webhook-endpoints/${created.body.id}/deliveries`)).body.deliveries;
          return d?.status === 'delivered' && d;
        },
        { what: 'delivered' },
      );
      expect(delivered.id).toBe(test.body.delivery_id);
    } finally {
      if (svc) await stopService(svc);
      receiver.setAnswer((_r, res) => void res.writeHead(204).end());
    }
  });
});
