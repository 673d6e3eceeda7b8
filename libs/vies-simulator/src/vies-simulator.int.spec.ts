import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClientAsync, type Client } from 'soap';
import { VIES_WSDL_PATH } from './wsdl';
import { startViesSimulator, type ViesSimulator } from './vies-simulator';

type Answer = Record<string, unknown>;
type SoapOperation = (args: object) => Promise<[Answer, ...unknown[]]>;

const envelope = (body: string) =>
  '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:urn="urn:ec.europa.eu:taxud:vies:services:checkVat:types">' +
  `<soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;

/** The simulator over real HTTP: raw SOAP for the wire shape, a node-soap client from the same WSDL for the answers. */
describe('VIES simulator', () => {
  let sim: ViesSimulator;
  let client: Client;

  const call = async (name: 'checkVatAsync' | 'checkVatApproxAsync', args: object): Promise<Answer> => {
    // node-soap adds one method per WSDL operation at runtime; they are not in its types.
    const [answer] = await (client as unknown as Record<typeof name, SoapOperation>)[name].call(client, args);
    return answer;
  };
  const faultOf = async (promise: Promise<unknown>): Promise<unknown> =>
    promise.then(
      () => 'no fault',
      (err: { root?: { Envelope?: { Body?: { Fault?: { faultstring?: unknown } } } } }) => err.root?.Envelope?.Body?.Fault?.faultstring,
    );

  beforeAll(async () => {
    sim = await startViesSimulator({
      slowMs: 5_000,
      table: { '777': { kind: 'slow', delayMs: 30, then: { kind: 'invalid' } }, '888': { kind: 'valid', name: 'OVERRIDE GMBH' } },
    });
    client = await createClientAsync(VIES_WSDL_PATH, { customDeserializer: { date: (text: string) => text } });
    client.setEndpoint(sim.url);
  });
  afterAll(() => sim.stop());

  it('answers an EU test number like the EU test service', async () => {
    expect(await call('checkVatAsync', { countryCode: 'DE', vatNumber: '100' })).toMatchObject({
      countryCode: 'DE',
      vatNumber: '100',
      valid: true,
      name: 'VIES TEST TRADER',
      address: 'TEST STREET 1, 1000 TEST CITY',
      requestDate: `${new Date().toISOString().slice(0, 10)}Z`,
    });
    expect(await call('checkVatAsync', { countryCode: 'AT', vatNumber: '200' })).toMatchObject({
      valid: false,
      name: '---',
      address: '---',
    });
    expect(await faultOf(call('checkVatAsync', { countryCode: 'DE', vatNumber: '300' }))).toBe('SERVICE_UNAVAILABLE');
  });

  it('answers scenario numbers (99999<test number><digit>) like their test number', async () => {
    expect(await call('checkVatAsync', { countryCode: 'DE', vatNumber: '999991005' })).toMatchObject({
      valid: true,
      name: 'VIES TEST TRADER',
    });
    expect(await faultOf(call('checkVatAsync', { countryCode: 'DE', vatNumber: '999993011' }))).toBe('MS_UNAVAILABLE');
  });

  it('answers other numbers by the EU syntax check, with a trader that says it is made up', async () => {
    expect(await call('checkVatAsync', { countryCode: 'DE', vatNumber: '143454214' })).toMatchObject({
      valid: true,
      name: expect.stringMatching(/SIMULATED.*NOT A REAL VIES ANSWER/),
    });
    expect(await call('checkVatAsync', { countryCode: 'DE', vatNumber: '143454215' })).toMatchObject({ valid: false });
  });

  it('lets the table option override and extend the EU test table', async () => {
    expect(await call('checkVatAsync', { countryCode: 'FR', vatNumber: '888' })).toMatchObject({ valid: true, name: 'OVERRIDE GMBH' });
    expect(await call('checkVatAsync', { countryCode: 'FR', vatNumber: '777' })).toMatchObject({ valid: false });
  });

  it.each([
    ['a malformed country code', { countryCode: 'D1', vatNumber: '100' }],
    ['an empty number', { countryCode: 'DE', vatNumber: '' }],
    ['an over-long number', { countryCode: 'DE', vatNumber: '1234567890123' }],
    ['characters VIES does not accept', { countryCode: 'DE', vatNumber: '12 34-56' }],
  ])('answers INVALID_INPUT for %s, like VIES', async (_what, args) => {
    expect(await faultOf(call('checkVatAsync', args))).toBe('INVALID_INPUT');
  });

  it('issues a consultation number only through checkVatApprox with a requester', async () => {
    const withRequester = await call('checkVatApproxAsync', {
      countryCode: 'DE',
      vatNumber: '100',
      requesterCountryCode: 'AT',
      requesterVatNumber: 'U13585627',
    });
    expect(withRequester).toMatchObject({
      valid: true,
      traderName: 'VIES TEST TRADER',
      requestIdentifier: expect.stringMatching(/^WAPIAAAA[0-9A-F]{12}$/),
    });
    const without = await call('checkVatApproxAsync', { countryCode: 'DE', vatNumber: '100' });
    expect(without.requestIdentifier ?? '').toBe('');
  });

  it('answers INVALID_REQUESTER_INFO for a requester VAT ID that fails the syntax check', async () => {
    expect(
      await faultOf(
        call('checkVatApproxAsync', { countryCode: 'DE', vatNumber: '100', requesterCountryCode: 'AT', requesterVatNumber: 'U1' }),
      ),
    ).toBe('INVALID_REQUESTER_INFO');
  });

  it('sends SOAP faults shaped like the real service (HTTP 500, soap:Server, faultstring = code)', async () => {
    const res = await fetch(sim.url, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '""' },
      body: envelope('<urn:checkVat><urn:countryCode>DE</urn:countryCode><urn:vatNumber>301</urn:vatNumber></urn:checkVat>'),
    });
    expect(res.status).toBe(500);
    expect(await res.text()).toMatch(
      /<soap:Fault><faultcode>soap:Server<\/faultcode><faultstring>MS_UNAVAILABLE<\/faultstring><\/soap:Fault>/,
    );
  });

  it('serves the WSDL it was built from, and nothing outside the service path', async () => {
    expect(await (await fetch(`${sim.url}?wsdl`)).text()).toContain('urn:ec.europa.eu:taxud:vies:services:checkVat:types');
    expect((await fetch(new URL('/other', sim.url))).status).toBe(404);
  });

  it('reports a member state that is down as MS_UNAVAILABLE until it is back, other states unaffected', async () => {
    sim.setMemberStateDown('fr', true);
    expect(await faultOf(call('checkVatAsync', { countryCode: 'FR', vatNumber: '40303265045' }))).toBe('MS_UNAVAILABLE');
    expect(await call('checkVatAsync', { countryCode: 'DE', vatNumber: '100' })).toMatchObject({ valid: true });
    sim.setMemberStateDown('FR', false);
    expect(await call('checkVatAsync', { countryCode: 'FR', vatNumber: '40303265045' })).toMatchObject({ valid: true });
  });

  it('counts checkVat and checkVatApprox requests, faults included', async () => {
    const before = sim.requestCount();
    await call('checkVatAsync', { countryCode: 'DE', vatNumber: '100' });
    await faultOf(call('checkVatAsync', { countryCode: 'DE', vatNumber: '300' }));
    await call('checkVatApproxAsync', { countryCode: 'DE', vatNumber: '100' });
    expect(sim.requestCount() - before).toBe(3);
  });

  it('stops promptly while a slow answer is still pending', async () => {
    const slow = await startViesSimulator({ slowMs: 30_000 });
    const pending = fetch(slow.url, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '""' },
      body: envelope('<urn:checkVat><urn:countryCode>DE</urn:countryCode><urn:vatNumber>999</urn:vatNumber></urn:checkVat>'),
    }).catch((err: unknown) => err);
    while (slow.requestCount() === 0) await new Promise((r) => setTimeout(r, 10));
    const started = Date.now();
    await slow.stop();
    expect(Date.now() - started).toBeLessThan(1_000);
    // The client sees its connection closed instead of an answer (undici's fetch error, from another realm than jest's Error).
    expect(await pending).toHaveProperty('message', 'fetch failed');
  });

  it('fails to start on a port that is taken, or without its WSDL', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      await expect(startViesSimulator({ port: (blocker.address() as AddressInfo).port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    await expect(startViesSimulator({ wsdlPath: `${VIES_WSDL_PATH}.missing` })).rejects.toThrow(/ENOENT/);
  });
});
