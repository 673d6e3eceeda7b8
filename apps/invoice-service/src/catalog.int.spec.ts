import { periodKeyOf } from './invoices/domain/number-patterns';
import type { Bus } from '@inv/bus';
import { asCompanyId, type CompanyId, type Messages } from '@inv/contracts';
import { startEmbeddedS3, type EmbeddedS3 } from '@inv/objects';
import { deleteBrokerObjects, deleteRedisKeys, identityHeaders, peerBus, testEnv, testMongo, uniquePrefix, waitFor } from '@inv/testing';
import { invoiceConfig } from './config';
import { createInvoiceService } from './invoice-service';

jest.setTimeout(120_000);

type Json = any;

/**
 * Company data invoice-service owns, against the real broker and the embedded MongoDB: numbering sequences
 * (patterns, validation, 50 concurrent creations get 50 consecutive numbers), the product catalog and
 * positions filled from it, and validation driven by the company profile (missing fields, Kleinunternehmer).
 */
describe('numbering, products and the seller profile', () => {
  const prefix = uniquePrefix('cat');
  /** What account- and customer-service do after a change: the change tokens of invoice-service's copies go. */
  const ownerChanged = () => deleteRedisKeys(`${prefix}:peer-data:`);
  const company = 'cmp_cat';
  let mongo: Awaited<ReturnType<typeof testMongo>>;
  let s3: EmbeddedS3;
  let service: Awaited<ReturnType<typeof createInvoiceService>>;
  let url: string;
  let peer: Bus<Messages>;
  const events: Json[] = [];
  const fullSeller = {
    found: true,
    seller: {
      name: 'Seller GmbH',
      vatId: 'DE123456789',
      address: { line1: 'Str 1', city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
    },
    payment: { meansCode: '58' as const, iban: 'DE02120300000000202051' },
    paymentTermDays: 14,
    paymentTerms: [{ id: 1, days: 14 }],
    defaultPaymentTermId: 1,
    smallBusiness: false,
    missing: [] as string[],
  };
  let seller: Json = fullSeller;

  const call = async (method: string, path: string, body?: unknown, companyId = company) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(await identityHeaders(companyId)) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    mongo = await testMongo();
    s3 = await startEmbeddedS3();
    peer = peerBus(prefix);
    peer.serveRpc('account.seller-profile.v1', async () => seller);
    peer.serveRpc('customer.billing-snapshot.v1', async () => ({
      found: true,
      hasBillingAddress: true,
      buyer: { name: 'Buyer AG', address: { line1: 'Weg 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' } },
      language: 'de',
      vatStatus: 'not_checked',
    }));
    peer.onEvent('catalog-log', ['product.changed.v1', 'numbering.changed.v1'], async (msg) => {
      events.push({ type: msg.type, ...msg.data });
    });
    await peer.start();
    service = await createInvoiceService(
      invoiceConfig.parse(testEnv(prefix, mongo.uri, { S3_ENDPOINT: s3.endpoint, S3_BUCKET: 'cat-test' })),
    );
    url = (await service.start()).url;
  });

  afterAll(async () => {
    await service?.stop();
    await peer?.stop();
    await deleteBrokerObjects(prefix);
    await deleteRedisKeys(`${prefix}:`); // the change tokens of the peer data copies
    await s3?.stop();
    await mongo?.stop();
  });

  const year = new Date().getUTCFullYear();

  describe('numbering sequences', () => {
    it('starts every company with RE-{YYYY}-{SEQ:5} and RK-{YYYY}-{SEQ:5} (Rechnungskorrektur), reset yearly', async () => {
      const res = await call('GET', '/numbering/', undefined, 'cmp_fresh');
      expect(res.body.sequences).toEqual([
        { document_type: 'invoice', pattern: 'RE-{YYYY}-{SEQ:5}', reset: 'yearly', next_value: 1, next_number: `RE-${year}-00001` },
        { document_type: 'credit_note', pattern: 'RK-{YYYY}-{SEQ:5}', reset: 'yearly', next_value: 1, next_number: `RK-${year}-00001` },
      ]);
      expect((await call('GET', '/numbering/offer')).status).toBe(400);
    });

    it('refuses patterns that cannot produce unique numbers, naming the field', async () => {
      const cases: [Json, string][] = [
        [{ pattern: 'RE-{YYYY}' }, 'pattern'],
        [{ pattern: 'RE-{SEQ}-{SEQ}' }, 'pattern'],
        [{ pattern: 'RE-{YEAR}-{SEQ}' }, 'pattern'],
        [{ pattern: 'RE-{SEQ}', reset: 'yearly' }, 'pattern'],
        [{ pattern: 'RE-{YYYY}-{SEQ}', reset: 'monthly' }, 'pattern'],
        [{ pattern: 'RK-{YYYY}-{SEQ:3}' }, 'pattern'], // same fixed text as the credit notes
        [{ next_value: 0 }, 'next_value'],
        [{ reset: 'weekly' }, 'reset'],
      ];
      for (const [body, field] of cases) {
        const res = await call('PUT', '/numbering/invoice', body);
        expect([JSON.stringify(body), res.status, res.body.errors?.[0]?.path]).toEqual([JSON.stringify(body), 400, field]);
      }
    });

    it('gives 50 concurrent creations 50 consecutive numbers, skips numbers taken explicitly, and refuses duplicates', async () => {
      const saved = await call('PUT', '/numbering/invoice', { pattern: 'INV/{YY}/{SEQ:4}', reset: 'yearly', next_value: 1 });
      expect(saved.body).toMatchObject({ pattern: 'INV/{YY}/{SEQ:4}', next_value: 1, next_number: `INV/${String(year).slice(2)}/0001` });
      await waitFor(() => events.some((e) => e.type === 'numbering.changed.v1' && e.documentType === 'invoice'), {
        what: 'numbering.changed',
      });
      const explicit = await call('POST', '/invoice/', { customer_id: 1, invoice_number: `INV/${String(year).slice(2)}/0003` });
      expect(explicit.status).toBe(201);
      expect((await call('POST', '/invoice/', { customer_id: 1, invoice_number: `INV/${String(year).slice(2)}/0003` })).body.code).toBe(
        'DUPLICATE_INVOICE_NUMBER',
      );
      const created = await Promise.all(Array.from({ length: 50 }, () => call('POST', '/invoice/', { customer_id: 1 })));
      expect(created.map((r) => r.status)).toEqual(Array(50).fill(201));
      const numbers = await Promise.all(
        created.map(async (r) => (await call('GET', `/invoice/${r.body.invoice_id}`)).body.invoice_number as string),
      );
      const values = numbers.map((n) => Number(n.split('/')[2])).sort((a, b) => a - b);
      const expected = Array.from({ length: 51 }, (_, i) => i + 1).filter((v) => v !== 3);
      expect(values).toEqual(expected);
      expect(new Set(numbers).size).toBe(50);
      expect((await call('GET', '/numbering/invoice')).body).toMatchObject({ next_value: 52 });
    });

    it('takes consecutive values within a period, and starts again at 1 in a new period (monthly, yearly, never)', async () => {
      const { deps } = service;
      const take = (companyId: CompanyId, at: string) =>
        deps.commit((session) => deps.numbering.take(companyId, 'invoice', new Date(at), session).then((t) => t.value));
      for (const [reset, sameAsNov, nextPeriod] of [
        ['monthly', '2026-11-30T23:00:00Z', '2026-12-01T00:00:00Z'],
        ['yearly', '2026-01-02T00:00:00Z', '2027-01-01T00:00:00Z'],
        ['never', '2020-01-01T00:00:00Z', '2031-06-01T00:00:00Z'],
      ] as const) {
        const companyId = asCompanyId(`cmp_periods_${reset}`);
        await deps.numbering.ensureExists(companyId, 'invoice', new Date('2026-11-10T00:00:00Z'));
        await deps.numbering.update(
          companyId,
          'invoice',
          { reset, periodKey: periodKeyOf(reset, new Date('2026-11-10T00:00:00Z')), next: 1 },
          new Date(),
        );
        expect([reset, await take(companyId, '2026-11-10T00:00:00Z'), await take(companyId, sameAsNov)]).toEqual([reset, 1, 2]);
        const fresh = reset === 'never' ? 3 : 1; // `never` has one period: it goes on counting
        expect([reset, await take(companyId, nextPeriod), await take(companyId, nextPeriod)]).toEqual([reset, fresh, fresh + 1]);
      }
    });

    it('configures the credit-note sequence on its own (credit notes take their numbers from it)', async () => {
      const res = await call('PUT', '/numbering/credit_note', { pattern: 'CN-{SEQ}', reset: 'never', next_value: 100 });
      expect(res.body).toMatchObject({ document_type: 'credit_note', next_number: 'CN-100' });
      expect((await call('GET', '/numbering/invoice')).body.pattern).toBe('INV/{YY}/{SEQ:4}');
    });
  });

  describe('products', () => {
    it('creates, lists with search and pagination, updates and deletes, announcing each change', async () => {
      const bad = await call('POST', '/products/', { name: 'X', unit_id: 'PIECE', unit_net_amount: -1 });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e: Json) => e.path).sort()).toEqual(['unit_id', 'unit_net_amount']);
      // a unit word and a percentage: the answer names UN/ECE Rec 20 with the code, and the rate as a fraction
      const words = await call('POST', '/products/', { name: 'X', unit_id: 'Stunde', unit_net_amount: 100, tax_rate: 19 });
      expect([words.status, words.body.errors]).toEqual([
        400,
        [
          {
            path: 'unit_id',
            message: expect.stringMatching(/"Stunde" is not a UN\/ECE Recommendation 20 unit code.*"HUR"/),
            suggestion: 'HUR',
          },
          { path: 'tax_rate', message: expect.stringMatching(/decimal fraction.*19 % is 0\.19/), suggestion: 0.19 },
        ],
      ]);
      const created = await call('POST', '/products/', {
        name: 'Beratung',
        unit_id: 'hur',
        unit_net_amount: '120.5',
        sku: 'B-1',
        description: 'per hour',
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        name: 'Beratung',
        unit_id: 'HUR',
        unit_net_amount: 120.5,
        tax_rate: 0.19,
        tax_treatment_id: 'standard',
        sku: 'B-1',
        active: true,
      });
      const id = created.body.id;
      expect((await call('POST', '/products/', { name: 'Other', unit_id: 'C62', unit_net_amount: 1, sku: 'B-1' })).body.code).toBe(
        'DUPLICATE_SKU',
      );
      const elsewhere = await call(
        'POST',
        '/products/',
        { name: 'Same SKU elsewhere', unit_id: 'C62', unit_net_amount: 1, sku: 'B-1' },
        'cmp_other',
      );
      expect(elsewhere.status).toBe(201);
      for (let i = 0; i < 5; i++)
        await call('POST', '/products/', { name: `Buch ${i}`, unit_id: 'C62', unit_net_amount: 10 + i, tax_treatment_id: 'reduced' });
      const page = await call('GET', '/products/?q=buch&limit=2&page=2');
      expect(page.body).toMatchObject({ total: 5, page: 2, limit: 2 });
      expect(page.body.products.map((p: Json) => [p.name, p.tax_rate])).toEqual([
        ['Buch 2', 0.07],
        ['Buch 1', 0.07],
      ]); // newest first
      expect((await call('GET', '/products/?q=b-1')).body.products.map((p: Json) => p.id)).toEqual([id]);
      expect((await call('GET', '/products/?limit=1000')).status).toBe(400);
      const updated = await call('PUT', `/products/${id}`, { unit_net_amount: 130, sku: null, description: null });
      expect(updated.body).toMatchObject({ unit_net_amount: 130, sku: null, description: null, name: 'Beratung' });
      // ids are per company: under our product's id another company finds its own product or nothing, never ours
      const seen = await call('GET', `/products/${id}`, undefined, 'cmp_other');
      if (id === elsewhere.body.id) expect(seen.body.name).toBe('Same SKU elsewhere');
      else expect(seen.status).toBe(404);
      await waitFor(() => events.some((e) => e.type === 'product.changed.v1' && e.productId === id && e.action === 'updated'), {
        what: 'product.changed',
      });
      const gone = (await call('POST', '/products/', { name: 'Gone', unit_id: 'C62', unit_net_amount: 1 })).body.id;
      expect((await call('DELETE', `/products/${gone}`)).status).toBe(200);
      expect((await call('GET', `/products/${gone}`)).status).toBe(404);
      expect((await call('DELETE', `/products/${gone}`)).status).toBe(404);
    });

    it('fills a position from product_id, keeps a copy, and refuses unknown and inactive products', async () => {
      const product = (
        await call('POST', '/products/', { name: 'Lizenz', unit_id: 'MON', unit_net_amount: 49.9, tax_rate: 0.19, description: 'monthly' })
      ).body;
      const inv = (await call('POST', '/invoice/', { customer_id: 1 })).body.invoice_id;
      expect((await call('POST', `/invoice/${inv}/positions`, { product_id: product.id, quantity: 3 })).status).toBe(201);
      expect(
        (
          await call('POST', `/invoice/${inv}/positions`, {
            product_id: product.id,
            quantity: 1,
            title: 'Lizenz (Sonderpreis)',
            unit_net_amount: 40,
          })
        ).status,
      ).toBe(201);
      await call('PUT', `/products/${product.id}`, { unit_net_amount: 99, name: 'Renamed' });
      const positions = (await call('GET', `/invoice/${inv}`)).body.positions;
      expect(positions.map((p: Json) => [p.title, p.unit_id, p.unit_net_amount, p.tax_rate, p.description, p.product_id])).toEqual([
        ['Lizenz', 'MON', 49.9, 0.19, 'monthly', product.id],
        ['Lizenz (Sonderpreis)', 'MON', 40, 0.19, 'monthly', product.id],
      ]);
      const unknown = await call('POST', `/invoice/${inv}/positions`, { product_id: 999999, quantity: 1 });
      expect([unknown.status, unknown.body.errors?.[0]?.path]).toEqual([400, 'product_id']);
      expect((await call('POST', `/invoice/${inv}/positions`, { product_id: product.id, quantity: 1 }, 'cmp_other')).status).toBe(404); // not their invoice
      await call('PUT', `/products/${product.id}`, { active: false });
      expect((await call('POST', `/invoice/${inv}/positions`, { product_id: product.id, quantity: 1 })).body.code).toBe('PRODUCT_INACTIVE');
      const missing = await call('POST', `/invoice/${inv}/positions`, { quantity: 1 });
      expect(missing.status).toBe(400); // neither product_id nor title/unit/price
      // the common mistakes through the real routes: each answer names the field, what is expected and the suggestion
      const mistakes = await call('POST', `/invoice/${inv}/positions`, {
        title: 'Beratung',
        quantity: 2,
        unit_id: 'Std',
        unit_net_amount: 100,
        tax_rate: 7,
      });
      expect([mistakes.status, mistakes.body.errors.map((e: Json) => [e.path, e.suggestion])]).toEqual([
        400,
        [
          ['unit_id', 'HUR'],
          ['tax_rate', 0.07],
        ],
      ]);
      const noCustomer = await call('POST', '/invoice/', { benefit_period_start: '29.11.2026' });
      expect(noCustomer.body.errors).toEqual([
        { path: 'customer_id', message: 'required' },
        { path: 'benefit_period_start', message: expect.stringContaining('YYYY-MM-DD'), suggestion: '2026-11-29' },
      ]);
    });
  });

  describe('unknown fields are refused (400 UNKNOWN_FIELD naming each, with a suggestion); nothing changes', () => {
    const pos = { title: 'Beratung', quantity: 1, unit_id: 'HUR', unit_net_amount: 100 };
    it.each([
      ['POST', '/invoice/', { customer_id: 1, invoice_formt: 'PDF' }, 'invoice_formt', 'invoice_format'],
      ['PUT', '/invoice/{id}', { benefit_period_strat: '2026-01-01' }, 'benefit_period_strat', 'benefit_period_start'],
      ['POST', '/invoice/{id}/positions', { ...pos, tax_rat: 0.19 }, 'tax_rat', 'tax_rate'],
      ['POST', '/invoice/{id}/positions', { ...pos, unitNetAmount: 100 }, 'unitNetAmount', 'unit_net_amount'],
      ['PUT', '/invoice/{id}/position/{pid}', { discount_vaule: 5 }, 'discount_vaule', 'discount_value'],
      ['PUT', '/invoice/{id}/positions/reorder', { position_id: [1] }, 'position_id', 'position_ids'],
      [
        'POST',
        '/invoice/{id}/job',
        { task: 'process_invoice_flag_invoice_send_job', vat_override: true },
        'vat_override',
        'vat_override_confirmed',
      ],
      [
        'PUT',
        '/invoice/{id}/status',
        { status: 'PAID', paid_date: '2026-01-02', payment_method: 'CASH', payment_refrence: 'x' },
        'payment_refrence',
        'payment_reference',
      ],
      ['POST', '/invoice/{id}/send_email', { to: 'ap@customer.example', attach_pfd: false }, 'attach_pfd', 'attach_pdf'],
      ['PUT', '/invoice/email-texts', { de: { subject: 'Rechnung {number}', bdy: 'x' } }, 'de.bdy', 'body'],
      ['POST', '/products/', { name: 'P', unit_id: 'C62', unit_net_amount: 1, skU: 'X' }, 'skU', 'sku'],
      ['PUT', '/products/{product}', { actve: false }, 'actve', 'active'],
      ['PUT', '/numbering/invoice', { patern: 'RE-{SEQ}' }, 'patern', 'pattern'],
    ])('%s %s', async (method, template, body, field, suggestion) => {
      const id = (await call('POST', '/invoice/', { customer_id: 1 })).body.invoice_id as number;
      const pid = (await call('POST', `/invoice/${id}/positions`, pos)).body.id as number;
      const product = (await call('POST', '/products/', { name: 'Unknown-field product', unit_id: 'C62', unit_net_amount: 1 })).body.id;
      const before = [
        (await call('GET', `/invoice/${id}`)).body,
        (await call('GET', `/products/${product}`)).body,
        (await call('GET', '/numbering/invoice')).body,
      ];
      const path = template.replace('{id}', String(id)).replace('{pid}', String(pid)).replace('{product}', String(product));
      const res = await call(method, path, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('UNKNOWN_FIELD');
      expect(res.body.errors[0]).toEqual({ path: field, in: 'body', message: `unknown field; did you mean ${suggestion}?` });
      const after = [
        (await call('GET', `/invoice/${id}`)).body,
        (await call('GET', `/products/${product}`)).body,
        (await call('GET', '/numbering/invoice')).body,
      ];
      expect(after).toEqual(before);
    });

    it('names nested unknown fields and keeps free meta objects open', async () => {
      const open = await call('POST', '/invoice/', {
        customer_id: 1,
        meta: { anything: { goes: [1, { here: true }] } },
        invoice_date: '2026-01-01',
      });
      expect(open.status).toBe(201);
      const res = await call('POST', '/invoice/', { customer_id: 1, meta: { free: 1 }, colour: 'red', invoice_formt: 'PDF' });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: Json) => e.path)).toEqual(['colour', 'invoice_formt']);
      const mail = await call('POST', `/invoice/${open.body.invoice_id}/send_email`, {
        to: ['ap@customer.example'],
        language: 'de',
        lang: 'de',
      });
      expect(mail.body.errors).toEqual([{ path: 'lang', in: 'body', message: 'unknown field; did you mean language?' }]);
    });

    it('products follow JSON Merge Patch: null removes description and sku, not the name or price', async () => {
      const id = (await call('POST', '/products/', { name: 'Patch', unit_id: 'C62', unit_net_amount: 1, sku: 'PATCH-1', description: 'd' }))
        .body.id;
      expect((await call('PUT', `/products/${id}`, { sku: null, description: null })).body).toMatchObject({
        sku: null,
        description: null,
        name: 'Patch',
      });
      const refused = await call('PUT', `/products/${id}`, { unit_net_amount: null, name: null });
      expect(refused.status).toBe(400);
      expect(refused.body.errors.map((e: Json) => e.path).sort()).toEqual(['name', 'unit_net_amount']);
    });
  });

  describe('validation from the company profile', () => {
    const draftWithPosition = async () => {
      const inv = (await call('POST', '/invoice/', { customer_id: 1, invoice_format: 'ZUGFERD' })).body.invoice_id;
      await call('POST', `/invoice/${inv}/positions`, {
        title: 'Beratung',
        quantity: 2,
        unit_id: 'HUR',
        unit_net_amount: 100,
        tax_rate: 0.19,
      });
      return inv as number;
    };

    it('names each company field an invoice still lacks', async () => {
      seller = { ...fullSeller, missing: ['legal_name', 'address.city'] };
      await ownerChanged();
      try {
        const res = await call('GET', `/invoice/${await draftWithPosition()}/validate`);
        expect(res.body.valid).toBe(false);
        expect(res.body.errors.filter((e: Json) => e.rule === 'SELLER_PROFILE').map((e: Json) => e.field)).toEqual([
          'company.legal_name',
          'company.address.city',
        ]);
      } finally {
        seller = fullSeller;
        await ownerChanged();
      }
    });

    it('issues a Kleinunternehmer invoice without VAT, with a warning naming the taxed positions', async () => {
      seller = { ...fullSeller, smallBusiness: true };
      await ownerChanged();
      try {
        const inv = await draftWithPosition();
        const res = await call('GET', `/invoice/${inv}/validate`);
        expect(res.body.valid).toBe(true);
        expect(res.body.warnings.map((w: Json) => w.rule)).toContain('SMALL_BUSINESS_NO_VAT');
      } finally {
        seller = fullSeller;
        await ownerChanged();
      }
    });
  });
});
