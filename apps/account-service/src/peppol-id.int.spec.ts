import { deleteBrokerObjects, deleteRedisKeys, peerBus, testEnv, testStores, uniquePrefix, serviceCaller } from '@inv/testing';
import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { accountConfig } from './config';
import { createAccountService } from './account-service';
import { DEMO_COMPANY_ID } from './usecases/bootstrap-demo-company';

jest.setTimeout(60_000);

/** The seller's Peppol participant id (BT-34): checked on PUT /company/, shown, and the seller endpoint of every invoice. */
describe('account-service: company peppol_id', () => {
  const prefix = uniquePrefix();
  let stores: Awaited<ReturnType<typeof testStores>>;
  let service: Awaited<ReturnType<typeof createAccountService>>;
  let peer: Bus<Messages>;
  let url: string;

  const call = serviceCaller(() => url, DEMO_COMPANY_ID);
  const sellerEndpoint = async () => (await peer.callRpc('account.seller-profile.v1', DEMO_COMPANY_ID, {})).seller?.electronicAddress;

  beforeAll(async () => {
    stores = await testStores();
    peer = peerBus(prefix);
    peer.serveRpc('customer.payment-term-usage.v1', async () => ({ customers: 0 }));
    peer.serveRpc('document.template-exists.v1', async () => ({ exists: false }));
    await peer.start();
    const config = accountConfig.parse(
      testEnv(prefix, stores.mongoUrl, { ...stores.s3Env, BOOTSTRAP_API_KEY: 'ak_live_00112233445566778899aabbccddeeff' }),
    );
    service = await createAccountService(config);
    url = (await service.start()).url;
  });
  afterAll(async () => {
    await service?.stop();
    await peer?.stop();
    await deleteBrokerObjects(prefix);
    await deleteRedisKeys(`${prefix}:`);
    await stores?.stop();
  });

  it('stores a checked peppol_id, uses it as the seller endpoint before the VAT-derived one, and null removes it', async () => {
    expect((await call('PUT', '/company/', { vat_id: 'DE123456789' })).status).toBe(200);
    expect(await sellerEndpoint()).toEqual({ scheme: '9930', value: 'DE123456789' });

    const saved = await call('PUT', '/company/', { peppol_id: '0088:4035811991021' });
    expect(saved.status).toBe(200);
    expect(saved.body.peppol_id).toBe('0088:4035811991021');
    expect((await call('GET', '/company/')).body.peppol_id).toBe('0088:4035811991021');
    expect(await sellerEndpoint()).toEqual({ scheme: '0088', value: '4035811991021' });

    expect((await call('PUT', '/company/', { peppol_id: null })).status).toBe(200);
    expect((await call('GET', '/company/')).body.peppol_id).toBeNull();
    expect(await sellerEndpoint()).toEqual({ scheme: '9930', value: 'DE123456789' });
  });

  it.each([
    ['0088:4035811991022', 'GS1 check digit'],
    ['0192:987654326', 'mod-11 check digit'],
    ['0208:0123456748', 'mod-97'],
    ['1234:5678', 'not in the Peppol EAS code list'],
    ['rechnung@example.com', 'EAS:identifier'],
  ])('refuses peppol_id %s: 400 naming peppol_id (%s)', async (peppolId, why) => {
    const res = await call('PUT', '/company/', { peppol_id: peppolId });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ path: 'peppol_id', message: expect.stringContaining(why) })]);
  });
});
