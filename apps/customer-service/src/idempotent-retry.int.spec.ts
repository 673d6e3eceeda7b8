import { crashRetryHarness } from '@inv/runtime/testing';

jest.setTimeout(240_000);

/**
 * The documented retry path for customer-service's creations: a POST sent with an Idempotency-Key whose service dies
 * right after its commit (the gateway answers 504 and forgets its copy) and that the client sends again with the same
 * key. customer-service runs as its own process behind a relay to MongoDB that kills it (SIGKILL) the moment its
 * commit has gone out; after a restart the retry answers the first result and nothing exists twice.
 */
describe('idempotent retries across a crash between commit and answer (customer-service)', () => {
  const { call, idempotentPost, crashThenRetry } = crashRetryHarness({ service: 'customer', company: 'cmp_idemcust' });

  it('creates a customer once: the retry after the crash answers it, a third send replays the kept answer', async () => {
    const body = { organization_name: 'Once GmbH' };
    const retry = await crashThenRetry('/customer/', body, 'customer-1');
    expect(retry.status).toBe(201);
    expect(retry.replayed).toBe('true');
    expect(retry.body).toEqual({ message: 'customer created', id: expect.any(Number) });
    const list = (await call('GET', '/customer/?limit=100')).body as Array<{ id: number; organization_name: string }>;
    expect(list.filter((c) => c.organization_name === 'Once GmbH').map((c) => c.id)).toEqual([retry.body.id]);
    expect((await call('GET', `/customer/${retry.body.id}`)).body.organization_name).toBe('Once GmbH');
    expect(await idempotentPost('/customer/', body, 'customer-1')).toEqual(retry);
  });

  it('adds an address once: the retry after the crash answers the address stored', async () => {
    const customer = (await call('POST', '/customer/', { organization_name: 'Address GmbH' })).body.id as number;
    const address = { type: 'billing', address_line_1: 'Hauptstr. 1', postal_code: '10115', city: 'Berlin', country_code: 'DE' };
    const retry = await crashThenRetry(`/customer/${customer}/addresses`, address, `address-${customer}`);
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({ id: expect.any(Number), address_line_1: 'Hauptstr. 1', city: 'Berlin' });
    const addresses = (await call('GET', `/customer/${customer}/addresses`)).body as Array<{ id: number }>;
    expect(addresses.map((a) => a.id)).toEqual([retry.body.id]);
  });
});
