import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { testMongo } from '@inv/testing';
import { createCustomerService, http, testBus, testConfig, testPrefixes, type CustomerService } from './testing/harness';

/**
 * Every buyer reachable: the Peppol participant id and the Italian identifiers of a customer, checked on input
 * (400 naming the field with the reason), stored, shown, and frozen into the billing snapshot invoices are made of.
 */
describe('customer-service: peppol_id and Italian buyer identifiers', () => {
  const prefixes = testPrefixes();
  let svc: CustomerService;
  let peer: Bus<Messages>;
  let call: ReturnType<typeof http>;
  let mongo: Awaited<ReturnType<typeof testMongo>>;

  beforeAll(async () => {
    mongo = await testMongo();
    svc = await createCustomerService(testConfig(prefixes, { MONGO_URL: mongo.uri }));
    const { url } = await svc.start();
    peer = testBus(prefixes.BUS_PREFIX);
    peer.serveRpc('account.payment-terms.v1', async () => ({ found: true, rev: 0, terms: [] }));
    peer.serveRpc('document.template-exists.v1', async () => ({ exists: false }));
    await peer.start();
    call = http(url, 'company-reach');
  }, 60_000);

  afterAll(async () => {
    await svc?.stop();
    await svc?.runtime.bus.deleteAll();
    await peer?.stop();
    await peer?.deleteAll();
    await mongo?.stop();
  }, 30_000);

  const create = async (body: object) => {
    const res = await call('POST', '/customer/', { body });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };
  /** 400 VALIDATION_ERROR whose errors name `field` with a message containing `why`. */
  const expect400 = async (body: object, field: string, why: string, method = 'POST', path = '/customer/') => {
    const res = await call(method, path, { body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    const named = (res.body.errors as { path: string; message: string }[]).find((e) => e.path === field);
    expect(named?.message).toContain(why);
  };

  it('a Norwegian company reached by its Peppol id: stored normalised, shown, and its snapshot endpoint is 0192 (no e-mail, no VAT ID)', async () => {
    const id = await create({
      organization_name: 'Fjordkraft Nordic AS',
      email: 'faktura@fjordkraft.example',
      peppol_id: ' 0192:987654325 ',
    });
    await call('POST', `/customer/${id}/addresses`, {
      body: { address_line_1: 'Karl Johans gate 22', city: 'Oslo', country_code: 'NO', postal_code: '0159' },
    });
    const got = await call('GET', `/customer/${id}`);
    expect(got.body).toMatchObject({ peppol_id: '0192:987654325', vat_id: null, codice_destinatario: null, pec: null });
    const snap = await peer.callRpc('customer.billing-snapshot.v1', 'company-reach', { customerId: id });
    expect(snap.buyer).toMatchObject({ name: 'Fjordkraft Nordic AS', electronicAddress: { scheme: '0192', value: '987654325' } });
    expect(snap.buyer?.vatId).toBeUndefined();
    expect(snap.vatStatus).toBe('not_checked');
  });

  it('the Peppol id goes before the endpoint derived from the VAT ID', async () => {
    const id = await create({ organization_name: 'Bierhandel GmbH', vat_id: 'DE136695976', peppol_id: '0088:4035811991021' });
    const snap = await peer.callRpc('customer.billing-snapshot.v1', 'company-reach', { customerId: id });
    expect(snap.buyer?.electronicAddress).toEqual({ scheme: '0088', value: '4035811991021' });
    expect(snap.buyer?.vatId).toBe('DE136695976');
  });

  it.each([
    ['0208:0123456749', '0208:0123456749'],
    ['9930:de123456789', '9930:DE123456789'],
  ])('accepts peppol_id %s (stored as %s), also on PUT', async (given, stored) => {
    const id = await create({ organization_name: 'Peppol Test' });
    expect((await call('PUT', `/customer/${id}`, { body: { peppol_id: given } })).status).toBeLessThan(300);
    expect((await call('GET', `/customer/${id}`)).body.peppol_id).toBe(stored);
  });

  it.each([
    ['0192:987654326', 'mod-11 check digit'],
    ['0088:4035811991022', 'GS1 check digit'],
    ['0208:0123456748', 'mod-97'],
    ['9999:123456789', 'not in the Peppol EAS code list'],
    ['987654325', 'EAS:identifier'],
    ['EM:ap@example.com', 'EAS:identifier'],
  ])('refuses peppol_id %s: 400 naming peppol_id (%s)', async (peppolId, why) => {
    await expect400({ organization_name: 'Bad Peppol AS', peppol_id: peppolId }, 'peppol_id', why);
    const id = await create({ organization_name: 'Good then bad' });
    await expect400({ peppol_id: peppolId }, 'peppol_id', why, 'PUT', `/customer/${id}`);
  });

  it('an Italian company: codice_destinatario, pec, codice_fiscale and partita_iva are stored, shown and snapshotted', async () => {
    const id = await create({
      organization_name: 'Delta Servizi S.r.l.',
      codice_destinatario: 'm5uxcr1',
      pec: 'fatture@pec.deltaservizi.it',
      codice_fiscale: '00743110157',
      partita_iva: 'IT00743110157',
    });
    const got = await call('GET', `/customer/${id}`);
    expect(got.body).toMatchObject({
      codice_destinatario: 'M5UXCR1',
      pec: 'fatture@pec.deltaservizi.it',
      codice_fiscale: '00743110157',
      partita_iva: '00743110157',
      peppol_id: null,
    });
    const snap = await peer.callRpc('customer.billing-snapshot.v1', 'company-reach', { customerId: id });
    expect(snap.buyer).toMatchObject({
      sdiCode: 'M5UXCR1',
      pec: 'fatture@pec.deltaservizi.it',
      fiscalCode: '00743110157',
      partitaIva: '00743110157',
    });
    // the Partita IVA is no vat_id: no VIES check is due and finalization asks for no VAT confirmation
    expect(snap.vatStatus).toBe('not_checked');
  });

  it('an Italian person (B2C) with a 16-character Codice Fiscale and a public administration with a 6-character code', async () => {
    const person = await create({ contact_type: 'B2C', first_name: 'Mario', last_name: 'Rossi', codice_fiscale: 'rssmra85t10a562s' });
    expect((await call('GET', `/customer/${person}`)).body.codice_fiscale).toBe('RSSMRA85T10A562S');
    const pa = await create({ organization_name: 'Comune di Milano', codice_destinatario: 'UFY9MH', codice_fiscale: '01199250158' });
    expect((await call('GET', `/customer/${pa}`)).body.codice_destinatario).toBe('UFY9MH');
  });

  it.each([
    ['partita_iva', '01234567890', 'check digit'],
    ['partita_iva', '1234567', '11 digits'],
    ['codice_fiscale', 'RSSMRA85T10A562T', 'check character'],
    ['codice_fiscale', '01234567890', 'check digit'],
    ['codice_fiscale', 'RSSMRA85T10', '16 characters'],
    ['codice_destinatario', 'ABC12', '7 letters or digits'],
    ['codice_destinatario', 'ABC-123', '7 letters or digits'],
    ['pec', 'not-an-address', 'e-mail address'],
  ])('refuses %s %s: 400 naming the field (%s)', async (field, value, why) => {
    await expect400({ organization_name: 'Bad Italia S.r.l.', [field]: value }, field, why);
  });
});
