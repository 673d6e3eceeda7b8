import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { waitFor } from '@inv/testing';
import { apiClient, startSystem, type System } from '../support/system';

jest.setTimeout(240_000);

/**
 * A company that starts with nothing but its name (BOOTSTRAP_COMPANY_NAME) sets itself up through the API
 * alone: profile, bank account, payment term with Skonto, product, numbering pattern. Then it issues a
 * ZUGFeRD and an XRechnung invoice from the product, and the XML passes the official rules with the
 * seller, bank and payment-term data in it.
 */
describe('e2e: a fresh company sets itself up through the API', () => {
  const root = resolve(__dirname, '../..');
  let system: System;
  let base: string;
  let apiKey: string;
  const api = apiClient(
    () => base,
    () => apiKey,
  );
  const year = new Date().getUTCFullYear();

  beforeAll(async () => {
    system = await startSystem({
      kind: 'setup',
      env: { BOOTSTRAP_COMPANY_NAME: 'Neu Beratung GmbH', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn' },
      stdio: process.env.TEST_LOG_LEVEL ? 'inherit' : 'ignore',
    });
    ({ base, apiKey } = system);
  });
  afterAll(async () => {
    await system?.stop();
  });

  let customerId: number;
  let draftId: number;
  const issued: Record<string, number> = {};

  it('starts empty, and validation names every company field an invoice still needs', async () => {
    const company = (await api('GET', '/company/')).body;
    expect(company).toMatchObject({ name: 'Neu Beratung GmbH', legal_name: '', vat_id: null, bank_accounts: [] });
    const customer = await api('POST', '/customer/', {
      organization_name: 'Bundesamt für Beispiele',
      vat_id: 'DE 143 454 214',
      email: 'rechnung@bund.example',
      language: 'German',
    });
    customerId = customer.body.id;
    // an unconfirmed customer VAT ID is itself a finding (VAT_OVERRIDE_REQUIRED): let the VIES check finish first
    await waitFor(async () => (await api('GET', `/customer/${customerId}`)).body.vat_check?.status === 'valid', {
      what: "the customer's VAT check",
    });
    await api('POST', `/customer/${customerId}/addresses`, {
      address_line_1: 'Platz der Republik 1',
      city: 'Berlin',
      postal_code: '11011',
      country_code: 'DE',
    });
    draftId = (
      await api('POST', '/invoice/', { customer_id: customerId, invoice_format: 'XRECHNUNG', buyer_reference: '04011000-12345-34' })
    ).body.invoice_id;
    await api('POST', `/invoice/${draftId}/positions`, {
      title: 'Beratung',
      quantity: 1,
      unit_id: 'HUR',
      unit_net_amount: 100,
      tax_rate: 0.19,
    });
    const validation = (await api('GET', `/invoice/${draftId}/validate`)).body;
    expect(validation.valid).toBe(false);
    const fields = validation.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'company.legal_name',
        'company.address.line1',
        'company.address.city',
        'company.address.postal_code',
        'company.vat_id',
        'company.bank_accounts',
        'company.contact_name',
        'company.phone',
        'company.email',
      ]),
    );
    expect(fields.filter((f: string) => !f.startsWith('company.'))).toEqual([]);
    const refused = await api('POST', `/invoice/${draftId}/job`, { task: 'process_invoice_flag_invoice_send_job' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: { path: string }) => e.path)).toContain('company.legal_name');
  });

  let termId: number;
  let productId: number;

  it('enters its profile, bank account, Skonto term, product and numbering pattern', async () => {
    const profile = await api('PUT', '/company/', {
      legal_name: 'Neu Beratung GmbH',
      address: { line1: 'Lindenstraße 7', postal_code: '50674', city: 'Köln', country_code: 'de' },
      vat_id: 'DE 123 456 789',
      tax_number: '214/5678/1234',
      registration_court: 'Amtsgericht Köln',
      registration_id: 'HRB 99887',
      managing_directors: ['Jana Neu'],
      contact_name: 'Jana Neu',
      email: 'buchhaltung@neu-beratung.example',
      phone: '+49 221 987654',
      website: 'https://neu-beratung.example',
    });
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({
      legal_name: 'Neu Beratung GmbH',
      address: { country_code: 'DE' },
      vat_id: 'DE123456789',
      vat_check: { status: expect.any(String) },
    });
    await waitFor(async () => ['valid', 'invalid', 'unavailable'].includes((await api('GET', '/company/')).body.vat_check?.status), {
      what: "VIES check of the company's VAT ID",
    });

    const png = await sharp({ create: { width: 1200, height: 400, channels: 4, background: { r: 0, g: 90, b: 170, alpha: 0.8 } } })
      .png()
      .toBuffer();
    const logo = await fetch(`${base}/company/logo`, {
      method: 'PUT',
      headers: { 'x-api-key': apiKey, 'content-type': 'image/png' },
      body: png,
    });
    expect(logo.status).toBe(200);
    expect(await logo.json()).toMatchObject({ content_type: 'image/png', width: 709, height: 236 });
    const exe = await fetch(`${base}/company/logo`, {
      method: 'PUT',
      headers: { 'x-api-key': apiKey, 'content-type': 'image/png' },
      body: Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff'),
    });
    expect(exe.status).toBe(415);

    const bank = await api('POST', '/company/bank-accounts', {
      iban: 'de89 3704 0044 0532 0130 00',
      bic: 'COBADEFFXXX',
      bank_name: 'Commerzbank',
    });
    expect(bank.status).toBe(201);
    expect(bank.body).toMatchObject({ iban: 'DE89370400440532013000', is_default: true });

    const term = await api('POST', '/company/payment-terms', {
      name: '2 % Skonto 10 Tage, 30 Tage netto',
      days: 30,
      discount: { percent: 2, days: 10 },
    });
    expect(term.status).toBe(201);
    termId = term.body.id;
    expect((await api('PUT', '/company/', { default_payment_term_id: termId })).body.default_payment_term_id).toBe(termId);

    const product = await api('POST', '/products/', {
      name: 'Strategieberatung',
      description: 'Workshop, je Stunde',
      unit_id: 'HUR',
      unit_net_amount: 180,
      tax_treatment_id: 'standard',
      sku: 'STRAT-H',
    });
    expect(product.status).toBe(201);
    productId = product.body.id;

    // the draft created before the setup took RE-<year>-00001 (numbers are taken at creation)
    const numbering = await api('PUT', '/numbering/invoice', { pattern: 'RE-{YYYY}-{SEQ:5}', reset: 'yearly' });
    expect(numbering.body).toMatchObject({ pattern: 'RE-{YYYY}-{SEQ:5}', next_number: `RE-${year}-00002` });
    expect((await api('PUT', '/numbering/invoice', { pattern: 'RE-{YYYY}' })).status).toBe(400);

    // the customer chooses the Skonto term; while it does, the term cannot be deleted
    expect((await api('PUT', `/customer/${customerId}`, { payment_term_id: termId })).status).toBe(200);
    expect((await api('PUT', '/company/', { default_payment_term_id: 1 })).status).toBe(200);
    const inUse = await api('DELETE', `/company/payment-terms/${termId}`);
    expect([inUse.status, inUse.body.code, inUse.body.customers]).toEqual([409, 'PAYMENT_TERM_IN_USE', 1]);
  });

  it('issues a ZUGFeRD and an XRechnung invoice from the product whose XML passes the official rules', async () => {
    await waitFor(async () => (await api('GET', `/customer/${customerId}`)).body.vat_check?.status === 'valid', {
      what: 'VAT check of the customer',
    });
    expect((await api('POST', `/invoice/${draftId}/cancel`)).status).toBe(200); // the draft from before the setup keeps its number, cancelled
    const files: Record<string, string> = {};
    const pdfs: Record<string, Buffer> = {};
    const numbers: string[] = [];
    for (const [format, extra] of [
      ['ZUGFERD', {}],
      ['XRECHNUNG', { buyer_reference: '04011000-12345-34' }],
    ] as const) {
      const created = await api('POST', '/invoice/', { customer_id: customerId, invoice_format: format, ...extra });
      expect(created.status).toBe(201);
      const id = created.body.invoice_id as number;
      issued[format] = id;
      expect((await api('POST', `/invoice/${id}/positions`, { product_id: productId, quantity: 6 })).status).toBe(201);
      const invoice = (await api('GET', `/invoice/${id}`)).body;
      numbers.push(invoice.invoice_number);
      expect(invoice.positions[0]).toMatchObject({
        title: 'Strategieberatung',
        unit_id: 'HUR',
        unit_net_amount: 180,
        tax_rate: 0.19,
        product_id: productId,
      });
      expect((await api('GET', `/invoice/${id}/validate`)).body).toMatchObject({ valid: true, errors: [] });
      const job = await api('POST', `/invoice/${id}/job`, { task: 'process_invoice_flag_invoice_send_job' });
      expect(job.status).toBe(201);
      await waitFor(async () => (await api('GET', `/invoice/${id}/job/${job.body.job_id}`)).body.status === 'finished', {
        timeoutMs: 60_000,
        what: `${format} job`,
      });
      files[format] = await (await fetch((await api('GET', `/invoice/${id}/xml-link`)).body.url)).text();
      pdfs[format] = Buffer.from(await (await fetch((await api('GET', `/invoice/${id}/pdf-link`)).body.url)).arrayBuffer());
    }
    expect(numbers).toEqual([`RE-${year}-00002`, `RE-${year}-00003`]);
    // the finalization is the requesting key's in the audit log, although invoice-service announces it on document-service's answer
    const finalizedBy = await waitFor(
      async () => {
        const entries = (await api('GET', '/audit-log/?action=invoice.finalized&limit=10')).body.entries ?? [];
        return entries.length >= 2 && entries;
      },
      { what: 'audit entries of the finalizations' },
    );
    for (const entry of finalizedBy) expect(entry.actor).toMatchObject({ key_id: expect.any(String), request_id: expect.any(String) });
    for (const xml of Object.values(files)) {
      expect(xml).toContain('Neu Beratung GmbH');
      expect(xml).toContain('DE89370400440532013000');
      expect(xml).toContain('DE123456789');
      expect(xml).toMatch(/Skonto/);
    }
    expect(files.XRECHNUNG).toMatch(/#SKONTO#TAGE=10#PROZENT=2\.00#/);
    const dir = mkdtempSync(join(tmpdir(), 'e2e-setup-'));
    // the letterhead carries the logo: one image in each PDF (pdfimages from poppler-utils, which CI installs)
    for (const [format, pdf] of Object.entries(pdfs)) {
      const file = join(dir, `${format}.pdf`);
      writeFileSync(file, pdf);
      const { stdout } = await promisify(execFile)('pdfimages', ['-list', file]).catch(() => ({ stdout: '' }));
      if (!stdout) continue; // poppler-utils missing
      expect(
        stdout
          .split('\n')
          .slice(2)
          .filter((l) => l.trim()),
      ).toHaveLength(1);
      const { stdout: text } = await promisify(execFile)('pdftotext', [file, '-']);
      expect(text).toContain('Skonto');
      expect(text).toContain('DE89 3704 0044 0532 0130 00');
      expect(text).not.toContain('#SKONTO#'); // the machine line stays in the XML
    }
    const validate = resolve(root, '../shared/conformance/validate');
    if (!existsSync(validate)) return console.warn(`${validate} not found: official-rules check skipped`);
    for (const [format, kit] of [
      ['ZUGFERD', 'cii-en16931'],
      ['XRECHNUNG', 'xrechnung-ubl'],
    ] as const) {
      const file = join(dir, `${format}.xml`);
      writeFileSync(file, files[format]);
      const { stdout } = await promisify(execFile)(validate, [kit, file], { timeout: 180_000 }).catch((err: { stdout?: string }) => ({
        stdout: err.stdout ?? String(err),
      }));
      expect(stdout).toContain(`PASS ${file}`);
    }
  });

  it('issues a Kleinunternehmer invoice without VAT, with the § 19 UStG note, that passes the EN 16931 rules', async () => {
    expect((await api('PUT', '/company/', { small_business: true })).body.small_business).toBe(true);
    try {
      const id = (await api('POST', '/invoice/', { customer_id: customerId, invoice_format: 'ZUGFERD' })).body.invoice_id as number;
      await api('POST', `/invoice/${id}/positions`, { product_id: productId, quantity: 2 });
      const validation = (await api('GET', `/invoice/${id}/validate`)).body;
      expect(validation).toMatchObject({ valid: true, errors: [] });
      expect(validation.warnings.map((w: { rule: string }) => w.rule)).toContain('SMALL_BUSINESS_NO_VAT');
      const job = await api('POST', `/invoice/${id}/job`, { task: 'process_invoice_flag_invoice_send_job' });
      await waitFor(async () => (await api('GET', `/invoice/${id}/job/${job.body.job_id}`)).body.status === 'finished', {
        timeoutMs: 60_000,
        what: 'small-business job',
      });
      const invoice = (await api('GET', `/invoice/${id}`)).body;
      expect(invoice).toMatchObject({ net_amount: 360, tax_amount: 0, gross_amount: 360 });
      const xml = await (await fetch((await api('GET', `/invoice/${id}/xml-link`)).body.url)).text();
      expect(xml).toContain('Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.');
      expect(xml).toMatch(/<ram:CategoryCode>E<\/ram:CategoryCode>/);
      const validate = resolve(root, '../shared/conformance/validate');
      if (!existsSync(validate)) return console.warn(`${validate} not found: official-rules check skipped`);
      const file = join(mkdtempSync(join(tmpdir(), 'e2e-ku-')), 'kleinunternehmer.xml');
      writeFileSync(file, xml);
      const { stdout } = await promisify(execFile)(validate, ['cii-en16931', file], { timeout: 180_000 }).catch(
        (err: { stdout?: string }) => ({ stdout: err.stdout ?? String(err) }),
      );
      expect(stdout).toContain(`PASS ${file}`);
    } finally {
      await api('PUT', '/company/', { small_business: false });
    }
  });

  /** The XML of a ZUGFeRD invoice of the customer for one unit of the product, created and finalized right away. */
  const issueFromProduct = async () => {
    const draft = (await api('POST', '/invoice/', { customer_id: customerId, invoice_format: 'ZUGFERD' })).body.invoice_id as number;
    await api('POST', `/invoice/${draft}/positions`, { product_id: productId, quantity: 1 });
    const job = await api('POST', `/invoice/${draft}/job`, { task: 'process_invoice_flag_invoice_send_job' });
    await waitFor(async () => (await api('GET', `/invoice/${draft}/job/${job.body.job_id}`)).body.status === 'finished', {
      timeoutMs: 60_000,
      what: `the job of invoice ${draft}`,
    });
    return (await fetch((await api('GET', `/invoice/${draft}/xml-link`)).body.url)).text();
  };

  it('keeps the seller data an invoice was issued with when the company changes its profile afterwards', async () => {
    const id = issued.ZUGFERD;
    const before = await (await fetch((await api('GET', `/invoice/${id}/xml-link`)).body.url)).text();
    expect((await api('PUT', '/company/', { legal_name: 'Umbenannt Beratung GmbH' })).status).toBe(200);
    try {
      // the issued documents are the stored ones; nothing renders them again from today's profile
      expect(await (await fetch((await api('GET', `/invoice/${id}/xml-link`)).body.url)).text()).toBe(before);
      const after = await issueFromProduct();
      expect(after).toContain('Umbenannt Beratung GmbH');
      expect(before).toContain('Neu Beratung GmbH');
      expect(before).not.toContain('Umbenannt');
    } finally {
      await api('PUT', '/company/', { legal_name: 'Neu Beratung GmbH' });
    }
  });

  it("issues an invoice with the customer's data as changed right before it (invoice-service's copies are current)", async () => {
    const address = (await api('GET', `/customer/${customerId}/addresses`)).body[0] as { id: number };
    expect(await issueFromProduct()).toContain('Platz der Republik 1'); // the copies are made here, if not before
    // each change is answered, and the next request (the draft's creation) already sees it
    expect((await api('PUT', `/customer/${customerId}/addresses/${address.id}`, { address_line_1: 'Wilhelmstraße 54' })).status).toBe(200);
    expect((await api('PUT', `/customer/${customerId}`, { organization_name: 'Bundesamt für Gegenbeispiele' })).status).toBe(200);
    const after = await issueFromProduct();
    expect(after).toContain('Wilhelmstraße 54');
    expect(after).toContain('Bundesamt für Gegenbeispiele');
    expect(after).not.toContain('Platz der Republik 1');
  });
});
