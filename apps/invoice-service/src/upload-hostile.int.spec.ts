import type { Bus } from '@inv/bus';
import { asCompanyId, type Messages } from '@inv/contracts';
import {
  deleteBrokerObjects,
  deleteRedisKeys,
  identityHeaders,
  malformedMultipartBodies,
  peerBus,
  sendRawRequest,
  serviceCaller,
  testEnv,
  testStores,
  uniquePrefix,
} from '@inv/testing';
import { invoiceConfig } from './config';
import { createInvoiceService } from './invoice-service';
import { servePeerRpcs } from './testing/peer-rpcs';

jest.setTimeout(120_000);

/**
 * Every upload route of invoice-service (attachments, bank statements) gets every truncated and malformed
 * multipart body: each is answered with a 4xx problem (or, for a client gone mid-upload, nothing), and the
 * service keeps answering. A stream error nobody listens to would end the process (here: fail the test run).
 */
describe('invoice-service upload routes under malformed multipart', () => {
  const prefix = uniquePrefix('upl');
  const company = asCompanyId('cmp_upl');
  let stores: Awaited<ReturnType<typeof testStores>>;
  let service: Awaited<ReturnType<typeof createInvoiceService>>;
  let url: string;
  let peer: Bus<Messages>;
  const call = serviceCaller(() => url, company);

  beforeAll(async () => {
    stores = await testStores();
    peer = peerBus(prefix);
    servePeerRpcs(peer);
    await peer.start();
    service = await createInvoiceService(invoiceConfig.parse(testEnv(prefix, stores.mongoUrl, stores.s3Env)));
    url = (await service.start()).url;
  });

  afterAll(async () => {
    await service?.stop();
    await peer?.stop();
    await deleteBrokerObjects(prefix);
    await deleteRedisKeys(`${prefix}:`);
    await stores?.stop();
  });

  const routes = async () => {
    const created = await call('POST', '/invoice/', { customer_id: 1 });
    expect(created.status).toBe(201);
    return [`/invoice/${created.body.invoice_id}/attachments`, '/bank-statements/'];
  };

  it('answers each malformed body with a 4xx and stays up', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => void uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      for (const path of await routes()) {
        for (const m of malformedMultipartBodies()) {
          const status = await sendRawRequest(url, path, await identityHeaders(company), m);
          if (m.abort) expect({ path, name: m.name, status }).toEqual({ path, name: m.name, status: 0 });
          else expect({ path, name: m.name, status: status >= 400 && status < 500 }).toEqual({ path, name: m.name, status: true });
        }
        const alive = await call('GET', '/invoice/');
        expect(alive.status).toBe(200);
      }
      // a moment for errors emitted after the answers (streams destroyed late)
      await new Promise((r) => setTimeout(r, 300));
      expect(uncaught).toEqual([]);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
