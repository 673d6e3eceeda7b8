import { checkVatIdSyntax } from '@inv/contracts';
import { SIMULATOR_SCENARIO_VAT_IDS, startViesSimulator, type ViesSimulator } from '@inv/vies-simulator';
import { createViesClient, type ViesClient } from './vies-client';

/** The SOAP client against the simulator over real HTTP, built from the same WSDL. */
describe('VIES client against the simulator', () => {
  let sim: ViesSimulator;
  let client: ViesClient;

  beforeAll(async () => {
    sim = await startViesSimulator({ slowMs: 1_000, table: { '777': { kind: 'slow', delayMs: 50, then: { kind: 'invalid' } } } });
    client = createViesClient({ url: sim.url, timeoutMs: 250 });
  });
  afterAll(() => sim.stop());

  it('reads a valid answer with name, address and request date', async () => {
    const result = await client.checkVat('DE', '100');
    expect(result).toEqual({
      kind: 'valid',
      countryCode: 'DE',
      vatNumber: '100',
      requestDate: new Date().toISOString().slice(0, 10),
      name: 'VIES TEST TRADER',
      address: 'TEST STREET 1, 1000 TEST CITY',
    });
  });

  it('reads an invalid answer and drops the "---" placeholders', async () => {
    const result = await client.checkVat('AT', '200');
    expect(result).toMatchObject({ kind: 'invalid', countryCode: 'AT', vatNumber: '200' });
    expect(result).not.toHaveProperty('name', '---');
    expect(result.kind !== 'fault' && result.name).toBeUndefined();
  });

  it('answers valid with a made-up trader for other syntactically valid numbers, invalid otherwise', async () => {
    expect(await client.checkVat('DE', '143454214')).toMatchObject({ kind: 'valid', name: expect.stringMatching(/SIMULATED/) });
    expect(await client.checkVat('DE', '143454215')).toMatchObject({ kind: 'invalid' });
  });

  it.each([
    ['201', 'INVALID_INPUT', false],
    ['202', 'INVALID_REQUESTER_INFO', false],
    ['300', 'SERVICE_UNAVAILABLE', true],
    ['301', 'MS_UNAVAILABLE', true],
    ['302', 'TIMEOUT', true],
    ['400', 'VAT_BLOCKED', false],
    ['401', 'IP_BLOCKED', false],
    ['500', 'GLOBAL_MAX_CONCURRENT_REQ', true],
    ['501', 'GLOBAL_MAX_CONCURRENT_REQ_TIME', true],
    ['600', 'MS_MAX_CONCURRENT_REQ', true],
    ['601', 'MS_MAX_CONCURRENT_REQ_TIME', true],
  ])('maps test number %s to the fault %s (transient: %s)', async (number, fault, transient) => {
    expect(await client.checkVat('DE', number)).toEqual({ kind: 'fault', fault, transient });
  });

  it.each(Object.entries(SIMULATOR_SCENARIO_VAT_IDS).filter(([scenario]) => scenario !== 'slow'))(
    'scenario %s: %s passes the syntax check and answers like its test number',
    async (scenario, vatId) => {
      const syntax = checkVatIdSyntax(vatId);
      expect(syntax.ok).toBe(true);
      const result = await client.checkVat('DE', vatId.slice(2));
      expect(result.kind === 'fault' ? result.fault : result.kind).toBe(scenario);
    },
  );

  it('answers INVALID_INPUT for a malformed country code, like VIES', async () => {
    expect(await client.checkVat('D1', '100')).toEqual({ kind: 'fault', fault: 'INVALID_INPUT', transient: false });
  });

  it('gets a consultation number only through checkVatApprox with a requester', async () => {
    const withRequester = await client.checkVat('DE', '100', { countryCode: 'AT', vatNumber: 'U13585627' });
    expect(withRequester).toMatchObject({ kind: 'valid', name: 'VIES TEST TRADER', consultationNumber: expect.stringMatching(/^WAPI/) });
    const without = await client.checkVat('DE', '100');
    expect(without.kind !== 'fault' && without.consultationNumber).toBeUndefined();
  });

  it('reports a bad requester VAT ID as INVALID_REQUESTER_INFO', async () => {
    expect(await client.checkVat('DE', '100', { countryCode: 'AT', vatNumber: 'U1' })).toMatchObject({ fault: 'INVALID_REQUESTER_INFO' });
  });

  it('waits for an answer within the timeout', async () => {
    expect(await client.checkVat('DE', '777')).toMatchObject({ kind: 'invalid' });
  });

  it('turns an answer slower than the timeout into a transient CLIENT_TIMEOUT', async () => {
    const started = Date.now();
    expect(await client.checkVat('DE', '999')).toEqual({ kind: 'fault', fault: 'CLIENT_TIMEOUT', transient: true });
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('reports a member state that is down as MS_UNAVAILABLE until it is back', async () => {
    sim.setMemberStateDown('fr', true);
    expect(await client.checkVat('FR', '40303265045')).toMatchObject({ fault: 'MS_UNAVAILABLE', transient: true });
    expect(await client.checkVat('DE', '100')).toMatchObject({ kind: 'valid' });
    sim.setMemberStateDown('FR', false);
    expect(await client.checkVat('FR', '40303265045')).toMatchObject({ kind: 'valid' });
  });

  it('turns a refused connection into a transient NETWORK_ERROR', async () => {
    const other = await startViesSimulator();
    const url = other.url;
    await other.stop();
    const offline = createViesClient({ url, timeoutMs: 250 });
    expect(await offline.checkVat('DE', '100')).toEqual({ kind: 'fault', fault: 'NETWORK_ERROR', transient: true });
  });
});
