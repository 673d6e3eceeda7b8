import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { hostileRequests, identityHeaders, testMongo } from '@inv/testing';
import { createCustomerService, eventually, http, testBus, testConfig, testPrefixes, type CustomerService } from './testing/harness';

/**
 * customer-service against real RabbitMQ and the embedded MongoDB: every customer and address rule with
 * good and bad input, list/search, tenant isolation and the billing-snapshot RPC. A second bus plays
 * document-service (template ids 1 and 2 exist) and invoice-service (calls the RPC).
 */
describe('customer-service customers and addresses', () => {
  const prefixes = testPrefixes();
  let svc: CustomerService;
  let peer: Bus<Messages>;
  let call: ReturnType<typeof http>;
  let baseUrl: string;
  const vatEvents: { customerId: number; vatId: string; forceRefresh?: boolean; companyId: string }[] = [];
  /** What the peer, playing account-service, answers for account.payment-terms.v1 (the defaults unless set). */
  const defaultTerms = [
    { id: 1, name: '14 days', days: 14 },
    { id: 2, name: '30 days', days: 30 },
  ];
  const ownerTerms = new Map<string, { found: boolean; rev?: number; terms?: { id: number; name: string; days: number }[] }>();
  const ownerAsked: string[] = [];

  let mongo: Awaited<ReturnType<typeof testMongo>>;

  beforeAll(async () => {
    mongo = await testMongo();
    svc = await createCustomerService(testConfig(prefixes, { MONGO_URL: mongo.uri }));
    const { url } = await svc.start();
    baseUrl = url;
    peer = testBus(prefixes.BUS_PREFIX);
    peer.serveRpc('document.template-exists.v1', async (msg) => ({ exists: [1, 2].includes(msg.data.templateId) }));
    peer.serveRpc('account.payment-terms.v1', async (msg) => {
      if (msg.companyId === 'company-owner-down') await new Promise((resolve) => setTimeout(resolve, 3_000));
      ownerAsked.push(msg.companyId);
      return ownerTerms.get(msg.companyId) ?? { found: true, rev: 0, terms: [...defaultTerms] };
    });
    peer.onEvent('observer', ['customer.vat-id-changed.v1'], async (msg) => {
      vatEvents.push({ ...msg.data, companyId: msg.companyId });
    });
    await peer.start();
    call = http(url, 'company-a');
  }, 60_000);

  afterAll(async () => {
    await svc?.stop();
    await svc?.runtime.bus.deleteAll();
    await peer?.stop();
    await peer?.deleteAll();
    await mongo?.stop();
  }, 30_000);

  const b2b = { organization_name: 'Acme GmbH' };
  const create = async (body: object, company?: string) => {
    const res = await call('POST', '/customer/', { body, company });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };
  const expect400 = async (body: object, field: string, path = '/customer/', method = 'POST') => {
    const res = await call(method, path, { body });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(field);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    return res;
  };

  describe('create rules', () => {
    it('creates a B2B customer (the default) and answers {message, id}', async () => {
      const res = await call('POST', '/customer/', { body: b2b });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ message: expect.any(String), id: expect.any(Number) });
      const got = await call('GET', `/customer/${res.body.id}`);
      expect(got.body).toMatchObject({
        id: res.body.id,
        contact_type: 'B2B',
        organization_name: 'Acme GmbH',
        is_active: true,
        vat_check: { status: 'not_checked' },
      });
    });
    it('B2B needs organization_name', () => expect400({ contact_type: 'B2B', first_name: 'A', last_name: 'B' }, 'organization_name'));
    it('B2C needs first_name and last_name', async () => {
      const res = await expect400({ contact_type: 'B2C', first_name: 'Erika' }, 'last_name');
      expect(res.body.errors).toHaveLength(1);
      await expect400({ contact_type: 'B2C', last_name: 'Mustermann' }, 'first_name');
      await create({ contact_type: 'B2C', first_name: 'Erika', last_name: 'Mustermann' });
    });
    it('contact_type is B2B or B2C', () => expect400({ ...b2b, contact_type: 'b2b' }, 'contact_type'));
    it('salutation is uppercase MR, MRS, MS or OTHER', async () => {
      for (const s of ['MR', 'MRS', 'MS', 'OTHER']) await create({ ...b2b, salutation: s });
      const res = await expect400({ ...b2b, salutation: 'mr' }, 'salutation');
      expect(res.body.message).toMatch(/salutation/);
      await expect400({ ...b2b, salutation: 'DR' }, 'salutation');
    });
    it('language is English or German; de and en (any case) are accepted too and answered as the specification names them', async () => {
      await create({ ...b2b, language: 'English' });
      await create({ ...b2b, language: 'German' });
      for (const [given, answered] of [
        ['de', 'German'],
        ['EN', 'English'],
        ['german', 'German'],
      ]) {
        const id = await create({ ...b2b, language: given });
        expect((await call('GET', `/customer/${id}`)).body.language).toBe(answered);
      }
      const res = await expect400({ ...b2b, language: 'fr' }, 'language');
      expect(res.body.errors[0].message).toMatch(/"de" or "en" \(also "German" or "English"/);
    });
    it('email must be an e-mail address', async () => {
      await create({ ...b2b, email: 'billing@acme.example' });
      await expect400({ ...b2b, email: 'not-an-email' }, 'email');
    });
    it('vat_id must have the shape of its EU country; failing check digits make it invalid without asking VIES', async () => {
      const id = await create({ ...b2b, vat_id: 'DE 143 454 214' });
      expect((await call('GET', `/customer/${id}`)).body.vat_id).toBe('DE143454214');
      const sdkQuickStart = await create({ ...b2b, vat_id: 'DE123456789' });
      const created = (await call('GET', `/customer/${sdkQuickStart}`)).body;
      expect(created.vat_id).toBe('DE123456789');
      expect(created.vat_check).toMatchObject({ status: 'invalid', reason: 'checksum', fault: null });
      expect((await call('GET', `/customer/${sdkQuickStart}/vat-check`)).body).toMatchObject({
        status: 'invalid',
        reason: 'checksum',
        check_requested: false,
      });
      await expect400({ ...b2b, vat_id: 'DE12345678' }, 'vat_id');
      await expect400({ ...b2b, vat_id: 'US123456789' }, 'vat_id');
      await expect400({ ...b2b, vat_id: 'GR094259216' }, 'vat_id');
    });
    it('payment_term_id must exist for the company (1 and 2 are seeded)', async () => {
      await create({ ...b2b, payment_term_id: 2 });
      await expect400({ ...b2b, payment_term_id: 3 }, 'payment_term_id');
      await expect400({ ...b2b, payment_term_id: 'x' }, 'payment_term_id');
      const terms = await call('GET', '/customer/payment-terms');
      expect(terms.body.payment_terms).toEqual([
        { id: 1, name: '14 days', days: 14 },
        { id: 2, name: '30 days', days: 30 },
      ]);
    });
    it('takes the payment terms account-service announces (newest rev wins) and counts the customers using one', async () => {
      const company = 'company-terms';
      const terms = async () => (await call('GET', '/customer/payment-terms', { company })).body.payment_terms;
      const announced = [
        { id: 1, name: '14 days', days: 14 },
        { id: 3, name: 'Skonto', days: 30 },
      ];
      ownerTerms.set(company, { found: true, rev: 2, terms: announced }); // what account-service would answer
      await peer.publishEvent('company.payment-terms-changed.v1', company, { rev: 2, terms: announced });
      await eventually(async () => (await terms()).some((t: { id: number }) => t.id === 3) || undefined, 10_000, 'terms announced');
      expect(await terms()).toContainEqual({ id: 3, name: 'Skonto', days: 30 });
      await peer.publishEvent('company.payment-terms-changed.v1', company, { rev: 1, terms: [{ id: 1, name: '14 days', days: 14 }] }); // late, older
      const a = await create({ ...b2b, payment_term_id: 3 }, company);
      await create({ ...b2b, payment_term_id: 3 }, company);
      await create({ ...b2b, payment_term_id: 1 }, company);
      expect(await terms()).toHaveLength(2);
      expect((await call('POST', '/customer/', { body: { ...b2b, payment_term_id: 2 }, company })).status).toBe(400); // 2 was removed
      expect(await peer.callRpc('customer.payment-term-usage.v1', company, { paymentTermId: 3 })).toEqual({ customers: 2 });
      expect(await peer.callRpc('customer.payment-term-usage.v1', 'company-a', { paymentTermId: 3 })).toEqual({ customers: 0 });
      expect((await call('PUT', `/customer/${a}`, { body: { payment_term_id: 1 }, company })).status).toBe(200);
      expect(await peer.callRpc('customer.payment-term-usage.v1', company, { paymentTermId: 3 })).toEqual({ customers: 1 });
    }, 30_000);
    it('asks account-service for a term its copy does not know yet (created a moment ago) and keeps the answer', async () => {
      const company = 'company-fresh-term';
      const terms = async () => (await call('GET', '/customer/payment-terms', { company })).body.payment_terms;
      ownerTerms.set(company, { found: true, rev: 4, terms: [...defaultTerms, { id: 3, name: 'Skonto', days: 30 }] });
      const id = await create({ ...b2b, payment_term_id: 1 }, company);
      expect(ownerAsked).not.toContain(company); // a known term needs no question
      expect((await call('PUT', `/customer/${id}`, { body: { payment_term_id: 3 }, company })).status).toBe(200);
      expect(ownerAsked.filter((c) => c === company)).toHaveLength(1);
      expect(await terms()).toContainEqual({ id: 3, name: 'Skonto', days: 30 }); // the copy took the owner's answer
      await create({ ...b2b, payment_term_id: 3 }, company);
      expect(ownerAsked.filter((c) => c === company)).toHaveLength(1);
      // the event of that change arrives late: same rev, nothing changes
      await peer.publishEvent('company.payment-terms-changed.v1', company, { rev: 4, terms: [{ id: 1, name: '14 days', days: 14 }] });
      // a term the owner does not have either is a 400 naming the field
      const res = await call('PUT', `/customer/${id}`, { body: { payment_term_id: 9 }, company });
      expect([res.status, res.body.errors?.[0]?.path]).toEqual([400, 'payment_term_id']);
      expect(ownerAsked.filter((c) => c === company)).toHaveLength(2);
      expect(await terms()).toContainEqual({ id: 3, name: 'Skonto', days: 30 });
      // an unknown company at the owner: the term does not exist
      ownerTerms.set('company-unknown', { found: false });
      const unknown = await call('POST', '/customer/', { body: { ...b2b, payment_term_id: 3 }, company: 'company-unknown' });
      expect(unknown.status).toBe(400);
    }, 30_000);
    it('answers 503 when the term is unknown here and account-service does not answer', async () => {
      const res = await call('POST', '/customer/', { body: { ...b2b, payment_term_id: 3 }, company: 'company-owner-down' });
      expect([res.status, res.body.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
      // a term the copy knows needs no answer from account-service
      expect((await call('POST', '/customer/', { body: { ...b2b, payment_term_id: 1 }, company: 'company-owner-down' })).status).toBe(201);
    }, 30_000);
    it('default_ftl_template_id must exist (asked from document-service)', async () => {
      await create({ ...b2b, default_ftl_template_id: 1 });
      await expect400({ ...b2b, default_ftl_template_id: 99 }, 'default_ftl_template_id');
    });
    it('is_active is a boolean', async () => {
      const id = await create({ ...b2b, is_active: false });
      expect((await call('GET', `/customer/${id}`)).body.is_active).toBe(false);
      await expect400({ ...b2b, is_active: 'yes' }, 'is_active');
    });
    it('null means "not given", also for a field the contract does not know (what the SDK sends)', async () => {
      const id = await create({
        ...b2b,
        first_name: null,
        last_name: null,
        email: null,
        contact_type: null,
        vat_id: null,
        language: null,
        payment_term_id: null,
        default_ftl_template_id: null,
        salutation: null,
        is_active: null,
        favourite_colour: null,
      });
      const got = await call('GET', `/customer/${id}`);
      expect(got.body).toMatchObject({ contact_type: 'B2B', email: null, is_active: true });
      expect(got.body.favourite_colour).toBeUndefined();
    });
  });

  describe('unknown fields are refused (400 UNKNOWN_FIELD naming each, with a suggestion)', () => {
    it.each([
      ['POST', '/customer/', { ...b2b, organisation_name: 'Acme' }, 'organisation_name', 'organization_name'],
      ['POST', '/customer/', { ...b2b, emial: 'a@b.example' }, 'emial', 'email'],
      ['POST', '/customer/', { ...b2b, vatId: 'DE123456789' }, 'vatId', 'vat_id'],
      ['POST', '/customer/', { ...b2b, favourite_colour: 'teal' }, 'favourite_colour', undefined],
      ['PUT', '/customer/{id}', { is_activ: false }, 'is_activ', 'is_active'],
      [
        'POST',
        '/customer/{id}/addresses',
        { address_line_1: 'Weg 1', city: 'Köln', country_code: 'DE', postcode: '50667' },
        'postcode',
        'postal_code',
      ],
      ['PUT', '/customer/{id}/addresses/{aid}', { cty: 'Bonn' }, 'cty', 'city'],
    ])('%s %s with a misspelt field', async (method, template, body, field, suggestion) => {
      const id = await create(b2b);
      const aid = (await call('POST', `/customer/${id}/addresses`, { body: { address_line_1: 'Weg 1', city: 'Köln', country_code: 'DE' } }))
        .body.id as number;
      const path = template.replace('{id}', String(id)).replace('{aid}', String(aid));
      const before = await call('GET', path.replace(/\/addresses\/\d+$/, '/addresses'));
      const res = await call(method, path, { body });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('UNKNOWN_FIELD');
      expect(res.body.errors[0]).toEqual({
        path: field,
        in: 'body',
        message: suggestion
          ? `unknown field; did you mean ${suggestion}?`
          : expect.stringMatching(/^unknown field; known fields: .*organization_name/),
      });
      expect(res.body.message).toContain(field);
      // nothing changed
      expect((await call('GET', path.replace(/\/addresses\/\d+$/, '/addresses'))).body).toEqual(before.body);
    });

    it('names every unknown field at once, and the other invalid fields after them', async () => {
      const res = await call('POST', '/customer/', { body: { contact_type: 'B2B', organisation_name: 'x', is_active: 'yes', colour: 1 } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('UNKNOWN_FIELD');
      const paths = res.body.errors.map((e: { path: string }) => e.path);
      expect(paths.slice(0, 2)).toEqual(['organisation_name', 'colour']);
      expect(paths.slice(2).sort()).toEqual(['is_active', 'organization_name']);
    });

    it('keeps every field the published SDK sends known (its nulls stay "not given")', async () => {
      const res = await call('POST', '/customer/', {
        body: {
          organization_name: 'Quick Start GmbH',
          first_name: null,
          last_name: null,
          salutation: null,
          email: 'ap@quick.example',
          phone: null,
          contact_type: 'B2B',
          vat_id: 'DE123456789',
          language: 'German',
          payment_term_id: null,
          default_ftl_template_id: null,
          is_active: true,
        },
      });
      expect(res.status).toBe(201);
      const address = await call('POST', `/customer/${res.body.id}/addresses`, {
        body: {
          address_line_1: 'Musterweg 1',
          address_line_2: null,
          city: 'Köln',
          postal_code: '50667',
          country_code: 'DE',
          is_default: true,
          type: null,
        },
      });
      expect(address.status).toBe(201);
    });
  });

  describe('customer numbers', () => {
    it('are 10000-69999, unique per company, counted per company', async () => {
      const a1 = await create(b2b, 'company-n1');
      const a2 = await create(b2b, 'company-n1');
      const b1 = await create(b2b, 'company-n2');
      const num = async (id: number, company: string) => (await call('GET', `/customer/${id}`, { company })).body.customer_number;
      expect(await num(a1, 'company-n1')).toBe(10000);
      expect(await num(a2, 'company-n1')).toBe(10001);
      expect(await num(b1, 'company-n2')).toBe(10000);
    });
    it('are never reused: when 69999 is handed out, creating another customer is a 409', async () => {
      // Jump the company's counter to the end of the range (as if 59999 customers had been created).
      await svc.runtime.conn
        .collection('counters')
        .updateOne({ _id: 'customer-number:company-full' as never }, { $set: { seq: 59999 } }, { upsert: true });
      const last = await create(b2b, 'company-full');
      expect((await call('GET', `/customer/${last}`, { company: 'company-full' })).body.customer_number).toBe(69999);
      const res = await call('POST', '/customer/', { company: 'company-full', body: b2b });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('CUSTOMER_NUMBERS_EXHAUSTED');
    });
  });

  describe('GET and PUT', () => {
    it('PUT changes only the fields sent', async () => {
      const id = await create({ ...b2b, email: 'a@acme.example', language: 'German', phone: '+49 30 1234' });
      const refused = await call('PUT', `/customer/${id}`, { body: { email: 'b@acme.example', unknown: 1 } });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('UNKNOWN_FIELD');
      const res = await call('PUT', `/customer/${id}`, { body: { email: 'b@acme.example', language: null, unknown: null } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        message: expect.any(String),
        email: 'b@acme.example',
        language: 'German',
        phone: '+49 30 1234',
        organization_name: 'Acme GmbH',
      });
    });
    it('PUT applies the rules to the result: switching to B2C needs the names', async () => {
      const id = await create(b2b);
      await expect400({ contact_type: 'B2C' }, 'first_name', `/customer/${id}`, 'PUT');
      const ok = await call('PUT', `/customer/${id}`, { body: { contact_type: 'B2C', first_name: 'Erika', last_name: 'Mustermann' } });
      expect(ok.status).toBe(200);
      await expect400({ salutation: 'mrs' }, 'salutation', `/customer/${id}`, 'PUT');
      await expect400({ payment_term_id: 7 }, 'payment_term_id', `/customer/${id}`, 'PUT');
      await expect400({ default_ftl_template_id: 7 }, 'default_ftl_template_id', `/customer/${id}`, 'PUT');
      await expect400({ vat_id: 'DE000' }, 'vat_id', `/customer/${id}`, 'PUT');
    });
    it('unknown ids are 404; non-numeric ids are 400', async () => {
      expect((await call('GET', '/customer/999999')).status).toBe(404);
      expect((await call('PUT', '/customer/999999', { body: { email: 'x@y.example' } })).status).toBe(404);
      expect((await call('GET', '/customer/abc')).status).toBe(400);
    });
    it('without the gateway header the request is 401', async () => {
      expect((await call('GET', '/customer/', { company: null })).status).toBe(401);
    });
  });

  describe('list', () => {
    const company = 'company-list';
    beforeAll(async () => {
      await create({ organization_name: 'Alpha Consulting', email: 'Office@Alpha.example' }, company);
      await create({ organization_name: 'Beta Bau', is_active: false }, company);
      await create({ contact_type: 'B2C', first_name: 'Erika', last_name: 'Mustermann', email: 'erika@example.org' }, company);
      for (let i = 0; i < 4; i++) await create({ organization_name: `Filler ${i}` }, company);
    });
    const list = (qs: string) => call('GET', `/customer/?${qs}`, { company });

    it('pages as a bare array in customer-number order, with X-Total-Count and Link headers', async () => {
      const first = await list('page=1&limit=3&q=');
      expect(first.body.map((c: { customer_number: number }) => c.customer_number)).toEqual([10000, 10001, 10002]);
      expect(first.headers.get('x-total-count')).toBe('7');
      expect(first.headers.get('link')).toBe(
        '</api/v1/customer/?q=&page=1&limit=3>; rel="first", </api/v1/customer/?q=&page=2&limit=3>; rel="next", </api/v1/customer/?q=&page=3&limit=3>; rel="last"',
      );
      const third = await list('page=3&limit=3');
      expect(third.body).toHaveLength(1);
      expect(third.headers.get('link')).toContain('</api/v1/customer/?page=2&limit=3>; rel="prev"');
      expect(third.headers.get('link')).not.toContain('rel="next"');
      expect((await list('')).headers.get('link')).toContain('limit=25');
    });
    it('limits the page size to 100 and pages to >= 1', async () => {
      expect((await list('limit=101')).status).toBe(400);
      expect((await list('page=0')).status).toBe(400);
    });
    it('searches names, e-mail and customer number with q', async () => {
      const names = async (qs: string) =>
        (await list(qs)).body.map(
          (c: { organization_name: string | null; last_name: string | null }) => c.organization_name ?? c.last_name,
        );
      expect(await names('q=alpha')).toEqual(['Alpha Consulting']);
      expect(await names('q=muster')).toEqual(['Mustermann']);
      expect(await names('q=erika%40example')).toEqual(['Mustermann']);
      expect(await names('q=10001')).toEqual(['Beta Bau']);
      expect(await names('q=erika%20mustermann')).toEqual(['Mustermann']);
      expect(await names('q=erika%20alpha')).toEqual([]);
      expect(await names('q=.*')).toEqual([]);
    });
    it('finds by exact e-mail (case-insensitive) and filters by contact_type and is_active', async () => {
      expect((await list('email=office%40alpha.example')).headers.get('x-total-count')).toBe('1');
      expect((await list('email=alpha.example')).headers.get('x-total-count')).toBe('0');
      expect((await list('contact_type=B2C')).headers.get('x-total-count')).toBe('1');
      expect((await list('is_active=false')).headers.get('x-total-count')).toBe('1');
      expect((await list('is_active=true&contact_type=B2B')).headers.get('x-total-count')).toBe('5');
      expect((await list('contact_type=xyz')).status).toBe(400);
    });
  });

  describe('addresses', () => {
    const addr = { address_line_1: 'Hauptstr. 1', city: 'Berlin', country_code: 'DE', postal_code: '10115' };
    let customerId: number;
    beforeAll(async () => {
      customerId = await create(b2b);
    });
    const path = (suffix = '') => `/customer/${customerId}/addresses${suffix}`;

    it('adds a billing address by default, gets and lists it', async () => {
      const res = await call('POST', path(), { body: { ...addr, company: null, type: null } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        message: expect.any(String),
        id: expect.any(Number),
        type: 'billing',
        is_default: true,
        country_code: 'DE',
      }); // the first billing address becomes the default
      expect((await call('GET', path(`/${res.body.id}`))).body).toMatchObject({ id: res.body.id, address_line_1: 'Hauptstr. 1' });
      expect((await call('GET', path())).body).toHaveLength(1);
      const second = await call('POST', path(), { body: { ...addr, address_line_1: 'Nebenstr. 2' } });
      expect(second.body.is_default).toBe(false); // the first one stays the default
    });
    it('requires address_line_1, city and country_code', async () => {
      await expect400({ city: 'Berlin', country_code: 'DE' }, 'address_line_1', path());
      await expect400({ address_line_1: 'x', country_code: 'DE' }, 'city', path());
      await expect400({ address_line_1: 'x', city: 'Berlin' }, 'country_code', path());
    });
    it('country_code must be an assigned ISO 3166-1 alpha-2 code (lowercase is accepted and upper-cased)', async () => {
      const ok = await call('POST', path(), { body: { ...addr, country_code: 'at', postal_code: '1010' } });
      expect(ok.body.country_code).toBe('AT');
      await expect400({ ...addr, country_code: 'XX' }, 'country_code', path());
      await expect400({ ...addr, country_code: 'DEU' }, 'country_code', path());
      await expect400({ ...addr, country_code: 'EU' }, 'country_code', path());
    });
    it.each([
      ['DE', '10115', '1011'],
      ['AT', '1010', '10100'],
      ['FR', '75001', '7500'],
      ['IT', '00184', '184'],
      ['ES', '28013', '99013'],
      ['NL', '1012 AB', '1012'],
    ])('postal code syntax of %s: %s ok, %s rejected', async (country, good, bad) => {
      expect((await call('POST', path(), { body: { ...addr, country_code: country, postal_code: good } })).status).toBe(201);
      await expect400({ ...addr, country_code: country, postal_code: bad }, 'postal_code', path());
    });
    it('type is billing or shipping', () => expect400({ ...addr, type: 'home' }, 'type', path()));

    it('keeps at most one default per type; setting a new default clears the old', async () => {
      const c = await create(b2b);
      const p = (s = '') => `/customer/${c}/addresses${s}`;
      const a = (await call('POST', p(), { body: { ...addr, is_default: true } })).body.id;
      const s = (await call('POST', p(), { body: { ...addr, type: 'shipping', is_default: true } })).body.id;
      const b = (await call('POST', p(), { body: { ...addr, address_line_1: 'Neue Str. 2', is_default: true } })).body.id;
      const flags = async () =>
        Object.fromEntries((await call('GET', p())).body.map((x: { id: number; is_default: boolean }) => [x.id, x.is_default]));
      expect(await flags()).toEqual({ [a]: false, [s]: true, [b]: true });
      await call('PUT', p(`/${a}`), { body: { is_default: true } });
      expect(await flags()).toEqual({ [a]: true, [s]: true, [b]: false });
    });

    it('PUT changes only the fields sent and re-checks the postal code against the resulting country', async () => {
      const id = (await call('POST', path(), { body: addr })).body.id;
      const res = await call('PUT', path(`/${id}`), { body: { city: 'Potsdam', postal_code: '14467', address_line_1: null } });
      expect(res.body).toMatchObject({ city: 'Potsdam', postal_code: '14467', address_line_1: 'Hauptstr. 1', country_code: 'DE' });
      await expect400({ country_code: 'AT' }, 'postal_code', path(`/${id}`), 'PUT');
      await expect400({ country_code: 'ZZ' }, 'country_code', path(`/${id}`), 'PUT');
    });

    it('DELETE removes an address, also the last billing address; unknown ids are 404', async () => {
      const c = await create(b2b);
      const id = (await call('POST', `/customer/${c}/addresses`, { body: addr })).body.id;
      expect((await call('DELETE', `/customer/${c}/addresses/${id}`)).status).toBe(200);
      expect((await call('GET', `/customer/${c}/addresses/${id}`)).status).toBe(404);
      expect((await call('DELETE', `/customer/${c}/addresses/${id}`)).status).toBe(404);
      expect((await call('GET', `/customer/${c}/addresses`)).body).toEqual([]);
    });
  });

  describe('tenant isolation', () => {
    it("another company's customer or address id answers 404 on every route", async () => {
      const id = await create({ ...b2b, vat_id: 'DE143454214' }, 'company-own');
      const addressId = (
        await call('POST', `/customer/${id}/addresses`, {
          company: 'company-own',
          body: { address_line_1: 'x', city: 'Berlin', country_code: 'DE' },
        })
      ).body.id;
      const other = { company: 'company-other' };
      const routes: [string, string, object?][] = [
        ['GET', `/customer/${id}`],
        ['PUT', `/customer/${id}`, { email: 'x@y.example' }],
        ['GET', `/customer/${id}/addresses`],
        ['POST', `/customer/${id}/addresses`, { address_line_1: 'x', city: 'Berlin', country_code: 'DE' }],
        ['GET', `/customer/${id}/addresses/${addressId}`],
        ['PUT', `/customer/${id}/addresses/${addressId}`, { city: 'Hamburg' }],
        ['DELETE', `/customer/${id}/addresses/${addressId}`],
        ['GET', `/customer/${id}/vat-check`],
        ['GET', `/customer/${id}/financial-overview`],
        ['GET', `/customer/${id}/statement`],
        ['GET', `/customer/${id}/statement/pdf`],
      ];
      for (const [method, p, body] of routes) {
        const res = await call(method, p, { ...other, body });
        expect([method, p, res.status]).toEqual([method, p, 404]);
      }
      expect((await call('GET', '/customer/?limit=100', other)).body.map((c: { id: number }) => c.id)).not.toContain(id);
      // ...and the owner still sees it unchanged.
      expect((await call('GET', `/customer/${id}/addresses/${addressId}`, { company: 'company-own' })).body.city).toBe('Berlin');
      const rpc = await peer.callRpc('customer.billing-snapshot.v1', 'company-other', { customerId: id });
      expect(rpc).toEqual({ found: false, hasBillingAddress: false, vatStatus: 'not_checked' });
    });
  });

  describe('billing-snapshot RPC', () => {
    it('answers found: false for an unknown customer', async () => {
      expect(await peer.callRpc('customer.billing-snapshot.v1', 'company-a', { customerId: 987654 })).toMatchObject({
        found: false,
        hasBillingAddress: false,
      });
    });
    it('answers the EN 16931 buyer with the default billing address (an address with is_default and no type, as the SDK adds it)', async () => {
      const id = await create({
        organization_name: 'Snapshot AG',
        email: 'ap@snapshot.example',
        vat_id: 'ATU13585627',
        language: 'English',
        payment_term_id: 1,
        default_ftl_template_id: 2,
        buyer_reference: 'PO-4711',
      });
      await call('POST', `/customer/${id}/addresses`, {
        body: { address_line_1: 'Lieferweg 9', city: 'Wien', country_code: 'AT', postal_code: '1010', type: 'shipping', is_default: true },
      });
      const before = await peer.callRpc('customer.billing-snapshot.v1', 'company-a', { customerId: id });
      expect(before).toMatchObject({ found: true, hasBillingAddress: false, vatStatus: 'pending' });
      await call('POST', `/customer/${id}/addresses`, {
        body: { address_line_1: 'Ring 1', city: 'Wien', country_code: 'AT', postal_code: '1010' },
      });
      await call('POST', `/customer/${id}/addresses`, {
        body: { address_line_1: 'Graben 2', city: 'Wien', country_code: 'AT', postal_code: '1010', is_default: true },
      });
      const snap = await peer.callRpc('customer.billing-snapshot.v1', 'company-a', { customerId: id });
      expect(snap).toEqual({
        found: true,
        buyer: {
          name: 'Snapshot AG',
          vatId: 'ATU13585627',
          electronicAddress: { scheme: '9914', value: 'ATU13585627' },
          address: { line1: 'Graben 2', city: 'Wien', postalCode: '1010', countryCode: 'AT' },
          contact: { email: 'ap@snapshot.example' },
        },
        hasBillingAddress: true,
        contactType: 'B2B',
        customerNumber: expect.any(Number),
        language: 'en',
        defaultTemplateId: 2,
        paymentTermId: 1,
        buyerReference: 'PO-4711',
        vatStatus: 'pending',
      });
    });
  });

  it("numbers customers and addresses per company: each new company's first is 1, and another company's id is 404", async () => {
    const [a, b] = [`company-ids-a-${Date.now()}`, `company-ids-b-${Date.now()}`];
    const ids = await Promise.all([a, b].map((company) => create({ ...b2b }, company)));
    expect(ids).toEqual([1, 1]);
    const address = { address_line_1: 'Weg 1', postal_code: '50667', city: 'Köln', country_code: 'DE' };
    const aids = await Promise.all([a, b].map((company) => call('POST', '/customer/1/addresses', { body: address, company })));
    expect(aids.map((r) => [r.status, r.body.id])).toEqual([
      [201, 1],
      [201, 1],
    ]);
    expect(await create({ ...b2b }, a)).toBe(2);
    expect((await call('GET', '/customer/2', { company: b })).status).toBe(404);
    expect((await call('GET', '/customer/1', { company: b })).body.id).toBe(1);
  });

  describe('VAT check events', () => {
    // ids are per company: a customer is (company, id)
    const ofCompanyVat = (e: { companyId: string }) => e.companyId === 'company-vat';
    it('emits customer.vat-id-changed.v1 when a B2B customer gets or changes a VAT ID, not for B2C or unchanged IDs', async () => {
      const id = await create({ ...b2b, vat_id: 'DE143454214' }, 'company-vat');
      await eventually(
        async () => (vatEvents.some((e) => ofCompanyVat(e) && e.customerId === id) ? true : undefined),
        10_000,
        'vat-id-changed',
      );
      expect(vatEvents.filter((e) => ofCompanyVat(e) && e.customerId === id)).toEqual([
        { customerId: id, vatId: 'DE143454214', companyId: 'company-vat' },
      ]);
      await call('PUT', `/customer/${id}`, { company: 'company-vat', body: { email: 'x@y.example', vat_id: 'DE143454214' } });
      await call('PUT', `/customer/${id}`, { company: 'company-vat', body: { vat_id: 'ATU13585627' } });
      await eventually(
        async () => (vatEvents.filter((e) => ofCompanyVat(e) && e.customerId === id).length === 2 ? true : undefined),
        10_000,
        'second event',
      );
      const b2c = await create({ contact_type: 'B2C', first_name: 'A', last_name: 'B', vat_id: 'DE143454214' }, 'company-vat');
      const check = await call('GET', `/customer/${b2c}/vat-check`, { company: 'company-vat' });
      expect(check.body).toMatchObject({ status: 'not_checked', check_requested: false });
      const recheck = await call('GET', `/customer/${id}/vat-check`, { company: 'company-vat' });
      expect(recheck.body).toMatchObject({ status: 'pending', vat_id: 'ATU13585627', check_requested: true });
      await eventually(
        async () => (vatEvents.some((e) => ofCompanyVat(e) && e.customerId === id && e.forceRefresh) ? true : undefined),
        10_000,
        'forced re-check',
      );
      expect(vatEvents.filter((e) => ofCompanyVat(e) && e.customerId === b2c)).toEqual([]);
      expect(vatEvents.filter((e) => ofCompanyVat(e) && e.customerId === id).map((e) => [e.vatId, e.forceRefresh ?? false])).toEqual([
        ['DE143454214', false],
        ['ATU13585627', false],
        ['ATU13585627', true],
      ]);
    });
  });

  describe('buyers outside the EU keep their tax number (BT-48), without a VIES check', () => {
    const company = 'company-non-eu';
    it.each([
      ['Norway', 'NO 987 654 325 MVA', 'NO987654325MVA', 'NO', '0154'],
      ['Switzerland', 'CHE-123.456.788 MWST', 'CHE123456788MWST', 'CH', '8001'],
      ['United Kingdom', 'GB 980 7806 84', 'GB980780684', 'GB', 'SW1A 2AA'],
    ])(
      '%s: %s is stored as %s, not_checked (outside_eu), no VIES event, and in the billing snapshot',
      async (_c, input, stored, country, postal) => {
        const id = await create({ organization_name: `Buyer ${country} Ltd`, vat_id: input }, company);
        const address = await call('POST', `/customer/${id}/addresses`, {
          company,
          body: { address_line_1: 'Street 1', city: 'City', country_code: country, postal_code: postal },
        });
        expect(address.status).toBe(201);
        const got = (await call('GET', `/customer/${id}`, { company })).body;
        expect(got.vat_id).toBe(stored);
        expect(got.vat_check).toMatchObject({ status: 'not_checked', reason: 'outside_eu' });
        expect((await call('GET', `/customer/${id}/vat-check`, { company })).body).toMatchObject({
          status: 'not_checked',
          reason: 'outside_eu',
          check_requested: false,
        });
        const snap = await peer.callRpc('customer.billing-snapshot.v1', company, { customerId: id });
        expect(snap).toMatchObject({ found: true, vatStatus: 'not_checked', buyer: { vatId: stored, address: { countryCode: country } } });
        // a PUT with another non-EU number: still no VIES check
        await call('PUT', `/customer/${id}`, { company, body: { vat_id: stored } });
        await new Promise((r) => setTimeout(r, 300));
        expect(vatEvents.filter((e) => e.companyId === company)).toEqual([]);
      },
    );

    it.each([
      ['NO987654326MVA', /Norway check digit/],
      ['NO98765432', /format of Norway tax numbers \(e\.g\. NO987654325MVA\)/],
      ['CHE123456789MWST', /Switzerland check digit/],
      ['CH123456788', /format of Switzerland tax numbers/],
      ['CHE123456788VAT', /format of Switzerland tax numbers/],
      ['GB123456789', /United Kingdom check digit/],
      ['GB98078068', /format of United Kingdom tax numbers/],
      ['US123456789', /US is not the prefix of an EU VAT ID; outside the EU, tax numbers of Norway .* are accepted/],
      ['NO987654325MVA\u0000', /./],
      ['NO'.padEnd(40, '9'), /./],
    ])('refuses %s with a reason', async (vatId, reason) => {
      const res = await expect400({ ...b2b, vat_id: vatId }, 'vat_id');
      expect(res.body.errors.find((e: { path: string }) => e.path === 'vat_id').message).toMatch(reason);
    });
  });

  describe('hostile input', () => {
    it('fuzz: 1,500 random requests against the real routes get no 5xx, and every 4xx is a problem with a message', async () => {
      const fc = (await import('fast-check')).default;
      const headers = await identityHeaders('company-fuzz');
      const id = (await call('POST', '/customer/', { body: b2b, company: 'company-fuzz' })).body.id as number;
      const statuses: Record<string, number> = {};
      const customer = fc.record(
        {
          organization_name: fc.oneof(fc.string({ maxLength: 300 }), fc.constant(null)),
          first_name: fc.string(),
          last_name: fc.string(),
          email: fc.oneof(fc.emailAddress(), fc.string()),
          contact_type: fc.constantFrom('B2B', 'B2C', 'x', null),
          salutation: fc.constantFrom('MR', 'mr', null),
          vat_id: fc.oneof(fc.constantFrom('DE123456789', 'DE143454214', 'GR094259216', 'XX1', '9'.repeat(10_000)), fc.string()),
          language: fc.constantFrom('German', 'English', 'Klingon'),
          payment_term_id: fc.oneof(fc.integer(), fc.string()),
          is_active: fc.anything(),
        },
        { requiredKeys: [] },
      );
      const address = fc.record(
        {
          address_line_1: fc.string(),
          city: fc.string(),
          postal_code: fc.string(),
          country_code: fc.constantFrom('DE', 'de', 'XX', 'US'),
          type: fc.constantFrom('billing', 'shipping', 'x'),
          is_default: fc.anything(),
        },
        { requiredKeys: [] },
      );
      const path = fc.constantFrom(
        '/customer/',
        `/customer/${id}`,
        `/customer/${id}/addresses`,
        `/customer/${id}/addresses/1`,
        '/customer/%C0%AF',
        `/customer/${id}/statement?from=2026-13-01`,
        '/customer/?limit=1000&page=-1&is_active=maybe',
        `/customer/${id}/vat-check`,
        '/customer/99999999999',
      );
      await hostileRequests({ baseUrl, headers, paths: path, bodies: [customer, address], tally: statuses, numRuns: 1_500 });
      console.log('customer-service fuzz status classes', statuses);
      expect((await call('GET', `/customer/${id}`, { company: 'company-fuzz' })).status).toBe(200);
    }, 120_000);
  });
});
