import { pageHarness, TEST_CSRF, type FakeApi } from '../../testing/page-harness';
import { registerSettingsPages } from './settings.pages';
import { company, JOB, settingsApi } from './fixtures';

type Harness = Awaited<ReturnType<typeof pageHarness>>;
const writes = (h: Harness) => h.calls.filter((c) => c.method !== 'GET');
async function withPages(o: { role?: string; lang?: 'de' | 'en'; api?: FakeApi }, run: (h: Harness) => Promise<void>) {
  const h = await pageHarness({
    register: registerSettingsPages,
    role: o.role,
    lang: o.lang,
    api: async (c) => (await o.api?.(c)) ?? settingsApi(c),
  });
  try {
    await run(h);
  } finally {
    await h.close();
  }
}
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a2d6b5ee0000000049454e44ae426082',
  'hex',
);
const profileForm = {
  legal_name: 'Neue Firma GmbH',
  trading_name: 'Neue Firma',
  line1: 'Weg 1',
  line2: '',
  postal_code: '12345',
  city: 'Köln',
  country_code: 'de',
  vat_id: 'DE999999999',
  tax_number: '',
  registration_court: '',
  registration_id: '',
  peppol_id: '',
  contact_name: 'Eva',
  email: 'eva@firma.example',
  phone: '',
  website: '',
  managing_directors: 'Eva Neu\r\n\r\n  Max Neu  ',
  default_language: 'en',
  payment_term_days: '30',
  default_payment_term_id: '1',
  small_business: '1',
};

describe('settings: company profile and logo', () => {
  it('shows the profile (escaped) with the edit form, the VAT check and the logo to an owner', async () => {
    await withPages({}, async (h) => {
      const page = await h.get('/app/settings');
      expect(page.status).toBe(200);
      expect(page.html).toContain('Müller &amp; Söhne &lt;Werkzeuge&gt;');
      expect(page.html).not.toContain('<Werkzeuge>');
      expect(page.html).toContain('action="/app/settings"');
      expect(page.html).toContain('value="Hauptstraße 123"');
      expect(page.html).toContain('Dr. Anna-Katharina Müller-Lüdenscheidt\nBernd Schmidt</textarea>');
      expect(page.html).toMatch(/<option value="2" selected>2 % Skonto/);
      expect(page.html).toContain('src="/app/settings/logo/image"');
      expect(page.html).toContain('enctype="multipart/form-data"');
      expect(page.html).toContain('href="/app/settings/logo/delete"');
      expect(page.html).toContain('<span class="badge">valid</span>');
      expect(page.html).toMatch(/<a href="\/app\/settings" aria-current="page">Company<\/a>/);
      expect(h.calls.every((c) => c.authorization?.startsWith('Bearer mt_'))).toBe(true);
    });
  });

  it('saves the profile as a merge patch: empty optional fields removed, directors one per line, numbers as numbers', async () => {
    await withPages(
      { api: (c) => (c.method === 'PUT' && c.path === '/company/' ? { status: 200, body: company } : undefined) },
      async (h) => {
        const posted = await h.post('/app/settings', profileForm);
        expect(posted.status).toBe(303);
        expect(posted.location).toBe('/app/settings');
        expect(h.takeFlash()).toEqual({ kind: 'ok', text: 'The company details were saved.' });
        expect(writes(h)).toHaveLength(1);
        expect(writes(h)[0]!.body).toEqual({
          legal_name: 'Neue Firma GmbH',
          trading_name: 'Neue Firma',
          address: { line1: 'Weg 1', line2: null, postal_code: '12345', city: 'Köln', country_code: 'de' },
          vat_id: 'DE999999999',
          tax_number: null,
          registration_court: null,
          registration_id: null,
          peppol_id: null,
          contact_name: 'Eva',
          email: 'eva@firma.example',
          phone: null,
          website: null,
          managing_directors: ['Eva Neu', 'Max Neu'],
          default_language: 'en',
          payment_term_days: 30,
          default_payment_term_id: 1,
          small_business: true,
        });
      },
    );
  });

  it("names the form's field of an API field error and keeps what was typed (German)", async () => {
    const refusal = { code: 'VALIDATION_ERROR', errors: [{ path: 'address.postal_code', message: 'Too long' }] };
    await withPages({ lang: 'de', api: (c) => (c.method === 'PUT' ? { status: 400, body: refusal } : undefined) }, async (h) => {
      const posted = await h.post('/app/settings', { ...profileForm, postal_code: '1234567890123456789012<x>' });
      expect(posted.status).toBe(400);
      expect(posted.html).toContain('Bitte prüfen Sie das Feld „Postleitzahl“ (Too long).');
      expect(posted.html).toContain('value="1234567890123456789012&lt;x&gt;"');
    });
  });

  it('shows a test session the API refusal of a change in the page language', async () => {
    const refusal = { code: 'TEST_MODE_READ_ONLY', detail: 'test mode cannot change the live company' };
    await withPages({ lang: 'de', api: (c) => (c.method === 'PUT' ? { status: 403, body: refusal } : undefined) }, async (h) => {
      const posted = await h.post('/app/settings', profileForm);
      expect(posted.status).toBe(403);
      expect(posted.html).toContain('Ein Testschlüssel kann das Unternehmen nicht ändern');
    });
  });

  it('shows a viewer the profile read-only (German) and refuses a forged change with 403 without calling the API', async () => {
    await withPages({ role: 'viewer', lang: 'de' }, async (h) => {
      const page = await h.get('/app/settings');
      expect(page.status).toBe(200);
      expect(page.html).toContain('Hauptstraße 123');
      expect(page.html).not.toContain('<form class="stack" method="post" action="/app/settings"');
      expect(page.html).not.toContain('multipart/form-data');
      expect(page.html).not.toContain('/app/settings/logo/delete');
      expect(page.html).toContain('Nur Inhaber und Administratoren');
      const forged = await h.post('/app/settings', profileForm);
      expect(forged.status).toBe(403);
      expect(forged.html).toContain('Ihre Rolle darf das nicht');
      expect((await h.get('/app/settings/logo/delete')).status).toBe(403);
      expect((await h.post('/app/settings/logo/delete', {})).status).toBe(403);
      expect(writes(h)).toHaveLength(0);
    });
  });

  it('refuses a form without the session CSRF token', async () => {
    await withPages({}, async (h) => {
      expect((await h.post('/app/settings', profileForm, 'forged')).status).toBe(403);
      expect(writes(h)).toHaveLength(0);
    });
  });

  const upload = (h: Harness, file: Buffer, type: string, csrf = TEST_CSRF) => {
    const form = new FormData();
    form.append('csrf', csrf);
    form.append('logo', new Blob([new Uint8Array(file)], { type }), 'logo.png');
    return fetch(`${h.url}/app/settings/logo`, { method: 'POST', body: form, redirect: 'manual' });
  };

  it('uploads the logo as the raw image with its type, then redirects with a message', async () => {
    const stored = {
      content_type: 'image/png',
      width: 1,
      height: 1,
      size: PNG.length,
      sha256: 'ab',
      uploaded_at: '2026-11-29T10:00:00.000Z',
      message: 'logo stored',
    };
    await withPages(
      { api: (c) => (c.method === 'PUT' && c.path === '/company/logo' ? { status: 200, body: stored } : undefined) },
      async (h) => {
        const res = await upload(h, PNG, 'image/png');
        expect(res.status).toBe(303);
        expect(res.headers.get('location')).toBe('/app/settings');
        const put = writes(h)[0]!;
        expect(put.path).toBe('/company/logo');
        expect(Buffer.isBuffer(put.body) ? put.body.equals(PNG) : false).toBe(true);
        expect(h.takeFlash()?.kind).toBe('ok');
      },
    );
  });

  it('refuses a logo over 1 MiB without calling the API, a forged upload by a viewer and one without CSRF', async () => {
    await withPages({}, async (h) => {
      const big = await upload(h, Buffer.alloc(1024 * 1024 + 10, 1), 'image/png');
      expect(big.status).toBe(413);
      expect(await big.text()).toContain('larger than 1 MB');
      expect((await upload(h, PNG, 'image/png', 'forged')).status).toBe(403);
      expect(writes(h)).toHaveLength(0);
    });
    await withPages({ role: 'viewer', lang: 'de' }, async (h) => {
      const res = await upload(h, PNG, 'image/png');
      expect(res.status).toBe(403);
      expect(await res.text()).toContain('Ihre Rolle darf das nicht');
      expect(writes(h)).toHaveLength(0);
    });
  });

  it('translates the API refusal of an image that is no PNG or JPEG', async () => {
    await withPages(
      { lang: 'de', api: (c) => (c.method === 'PUT' ? { status: 415, body: { code: 'UNSUPPORTED_LOGO_TYPE' } } : undefined) },
      async (h) => {
        const res = await upload(h, Buffer.from('GIF89a'), 'image/gif');
        expect(res.status).toBe(415);
        expect(await res.text()).toContain('kein lesbares PNG- oder JPEG-Bild');
        expect(writes(h)[0]!.path).toBe('/company/logo');
      },
    );
  });

  it('serves the logo from its presigned link on the dashboard origin, and deletes it after a confirmation', async () => {
    let gateway = '';
    const h = await pageHarness({
      register: (r, k) => {
        gateway = k.deps.gatewayUrl;
        registerSettingsPages(r, k);
      },
      api: (c) => {
        if (c.path === '/company/logo' && c.method === 'GET')
          return {
            status: 200,
            body: {
              url: `${gateway}/store/logo.png?sig=1`,
              content_type: 'image/png',
              width: 1,
              height: 1,
              size: PNG.length,
              sha256: 'ab',
              uploaded_at: '2026-11-29T10:00:00.000Z',
              expires_in: 300,
            },
          };
        if (c.path === '/store/logo.png?sig=1') return { status: 200, raw: PNG, contentType: 'image/png' };
        if (c.path === '/company/logo' && c.method === 'DELETE') return { status: 200, body: { message: 'logo deleted' } };
        return settingsApi(c);
      },
    });
    try {
      const res = await fetch(`${h.url}/app/settings/logo/image`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
      const confirm = await h.get('/app/settings/logo/delete');
      expect(confirm.html).toContain('action="/app/settings/logo/delete"');
      expect(writes(h)).toHaveLength(0);
      const done = await h.post('/app/settings/logo/delete', {});
      expect(done.status).toBe(303);
      expect(writes(h).map((c) => `${c.method} ${c.path}`)).toEqual(['DELETE /company/logo']);
    } finally {
      await h.close();
    }
  });
});

describe('settings in the test data', () => {
  it("shows an owner the live company's profile, bank accounts and payment terms read-only, and numbering editable", async () => {
    const h = await pageHarness({ register: registerSettingsPages, mode: 'test', lang: 'de', api: settingsApi });
    try {
      for (const [path, form] of [
        ['/app/settings', 'action="/app/settings"'],
        ['/app/settings/bank-accounts', 'action="/app/settings/bank-accounts"'],
        ['/app/settings/payment-terms', 'action="/app/settings/payment-terms"'],
      ] as const) {
        const page = await h.get(path);
        expect(page.status).toBe(200);
        expect(page.html).toContain('Sie sehen die Testdaten.');
        expect(page.html).not.toContain(form);
      }
      expect((await h.get('/app/settings')).html).not.toContain('multipart/form-data');
      expect((await h.get('/app/settings/numbering')).html).toContain('action="/app/settings/numbering/invoice"');
    } finally {
      await h.close();
    }
  });
});

describe('settings: bank accounts', () => {
  it('lists the accounts with edit and delete to an owner, and adds one with its idempotency key', async () => {
    const created = {
      id: 3,
      iban: 'DE75512108001245126199',
      iban_formatted: 'DE75 5121 0800 1245 1261 99',
      bic: null,
      bank_name: null,
      account_holder: null,
      is_default: false,
      created_at: '2026-11-29T10:00:00.000Z',
    };
    await withPages(
      { api: (c) => (c.method === 'POST' ? { status: 201, body: { ...created, message: 'created' } } : undefined) },
      async (h) => {
        const page = await h.get('/app/settings/bank-accounts');
        expect(page.html).toContain('DE89 3704 0044 0532 0130 00');
        expect(page.html).toContain('href="/app/settings/bank-accounts/1/delete"');
        const idem = /name="idem" value="([0-9a-f-]{36})"/.exec(page.html)![1]!;
        const posted = await h.post('/app/settings/bank-accounts', {
          idem,
          iban: ' de75 5121 0800 1245 1261 99 ',
          bic: '',
          bank_name: 'Sparkasse',
          account_holder: '',
        });
        expect(posted.status).toBe(303);
        expect(writes(h)[0]).toMatchObject({
          method: 'POST',
          path: '/company/bank-accounts',
          idempotencyKey: idem,
          body: { iban: 'de75 5121 0800 1245 1261 99', bank_name: 'Sparkasse' },
        });
        expect(h.takeFlash()?.text).toContain('DE75 5121 0800 1245 1261 99');
      },
    );
  });

  it('changes an account with PUT and deletes one only after the confirmation page', async () => {
    await withPages(
      {
        api: (c) =>
          c.method === 'PUT'
            ? { status: 200, body: { ...(settingsApi({ ...c, method: 'GET' })!.body as object), message: 'saved' } }
            : c.method === 'DELETE'
              ? { status: 200, body: { message: 'deleted' } }
              : undefined,
      },
      async (h) => {
        const edit = await h.get('/app/settings/bank-accounts/2');
        expect(edit.html).toContain('action="/app/settings/bank-accounts/2"');
        await h.post('/app/settings/bank-accounts/2', {
          iban: 'DE02120300000000202051',
          bic: 'BYLADEM1001',
          bank_name: '',
          account_holder: '',
          is_default: '1',
        });
        expect(writes(h)[0]).toMatchObject({
          method: 'PUT',
          path: '/company/bank-accounts/2',
          body: { iban: 'DE02120300000000202051', bic: 'BYLADEM1001', is_default: true },
        });
        const confirm = await h.get('/app/settings/bank-accounts/2/delete');
        expect(confirm.html).toContain('DE02 1203 0000 0000 2020 51');
        expect(writes(h)).toHaveLength(1);
        const done = await h.post('/app/settings/bank-accounts/2/delete', {});
        expect(done.location).toBe('/app/settings/bank-accounts');
        expect(writes(h)[1]).toMatchObject({ method: 'DELETE', path: '/company/bank-accounts/2' });
      },
    );
  });

  it('shows the IBAN refusal naming the field, and a 404 page for hostile ids without calling the API', async () => {
    const refusal = { code: 'VALIDATION_ERROR', errors: [{ path: 'iban', message: 'checksum does not match' }] };
    await withPages({ api: (c) => (c.method === 'POST' ? { status: 400, body: refusal } : undefined) }, async (h) => {
      const posted = await h.post('/app/settings/bank-accounts', { iban: 'DE00 <script>', bic: '', bank_name: '', account_holder: '' });
      expect(posted.status).toBe(400);
      expect(posted.html).toContain('Please check the field “IBAN” (checksum does not match).');
      expect(posted.html).toContain('value="DE00 &lt;script&gt;"');
      const before = h.calls.length;
      for (const bad of ['..%2Fx', '%2e%2e%2Fcompany', '1%3Fx=1', '0', 'abc', '12345678901'])
        expect((await h.get(`/app/settings/bank-accounts/${bad}`)).status).toBe(404);
      expect((await h.post('/app/settings/bank-accounts/%2e%2e%2F1/delete', {})).status).toBe(404);
      expect(h.calls.length).toBe(before);
    });
  });

  it('shows a member the accounts without actions and refuses a forged add (German, no API call)', async () => {
    await withPages({ role: 'member', lang: 'de' }, async (h) => {
      const page = await h.get('/app/settings/bank-accounts');
      expect(page.html).toContain('DE89 3704 0044 0532 0130 00');
      expect(page.html).not.toContain('/delete');
      expect(page.html).not.toContain('action="/app/settings/bank-accounts"');
      const forged = await h.post('/app/settings/bank-accounts', { iban: 'DE02120300000000202051' });
      expect(forged.status).toBe(403);
      expect(forged.html).toContain('Ihre Rolle darf das nicht');
      expect((await h.post('/app/settings/bank-accounts/1/delete', {})).status).toBe(403);
      expect(writes(h)).toHaveLength(0);
    });
  });
});

describe('settings: payment terms', () => {
  it('lists the terms with their rule (German) and adds one with Skonto typed with a comma', async () => {
    await withPages(
      {
        lang: 'de',
        api: (c) =>
          c.method === 'POST'
            ? {
                status: 201,
                body: {
                  id: 9,
                  name: 'Neu',
                  days: 30,
                  discount: { percent: 2.5, days: 10 },
                  text_de: null,
                  text_en: null,
                  is_default: false,
                  message: 'created',
                },
              }
            : undefined,
      },
      async (h) => {
        const page = await h.get('/app/settings/payment-terms');
        expect(page.html).toContain('2,5 % Skonto bei Zahlung innerhalb von 10 Tagen, 30 Tage netto');
        expect(page.html).toContain('&lt;b&gt;');
        const idem = /name="idem" value="([0-9a-f-]{36})"/.exec(page.html)![1]!;
        const posted = await h.post('/app/settings/payment-terms', {
          idem,
          name: 'Neu',
          days: '30',
          percent: '2,5',
          discount_days: '10',
          text_de: '',
          text_en: 'Due {due_date}.',
        });
        expect(posted.status).toBe(303);
        expect(writes(h)[0]).toMatchObject({
          path: '/company/payment-terms',
          idempotencyKey: idem,
          body: { name: 'Neu', days: 30, discount: { percent: 2.5, days: 10 }, text_de: null, text_en: 'Due {due_date}.' },
        });
      },
    );
  });

  it('sends no discount when both fields are empty, and shows the limit refusal', async () => {
    await withPages(
      {
        api: (c) =>
          c.method === 'POST'
            ? { status: 409, body: { code: 'PAYMENT_TERM_LIMIT_REACHED', detail: 'at most 50 payment terms' } }
            : undefined,
      },
      async (h) => {
        const posted = await h.post('/app/settings/payment-terms', {
          name: 'X',
          days: '14',
          percent: '',
          discount_days: '',
          text_de: '',
          text_en: '',
        });
        expect(posted.status).toBe(409);
        expect(posted.html).toContain('already has 50 payment terms');
        expect(writes(h)[0]!.body).toMatchObject({ discount: null });
      },
    );
  });

  it('edits (PUT) and deletes after confirmation; a viewer sees the term read-only and cannot change it', async () => {
    await withPages(
      {
        api: (c) =>
          c.method === 'PUT'
            ? {
                status: 200,
                body: { id: 2, name: 'Y', days: 20, discount: null, text_de: null, text_en: null, is_default: true, message: 'saved' },
              }
            : c.method === 'DELETE'
              ? { status: 200, body: { message: 'deleted' } }
              : undefined,
      },
      async (h) => {
        const edit = await h.get('/app/settings/payment-terms/2');
        expect(edit.html).toContain('value="2.5"');
        await h.post('/app/settings/payment-terms/2', { name: 'Y', days: '20', percent: '', discount_days: '', text_de: '', text_en: '' });
        expect(writes(h)[0]).toMatchObject({
          method: 'PUT',
          path: '/company/payment-terms/2',
          body: { name: 'Y', days: 20, discount: null },
        });
        await h.post('/app/settings/payment-terms/2/delete', {});
        expect(writes(h)[1]).toMatchObject({ method: 'DELETE', path: '/company/payment-terms/2' });
      },
    );
    await withPages({ role: 'viewer', lang: 'de' }, async (h) => {
      const page = await h.get('/app/settings/payment-terms/2');
      expect(page.status).toBe(200);
      expect(page.html).toContain('Zahlbar bis {due_date}.');
      expect(page.html).not.toContain('action="/app/settings/payment-terms/2"');
      expect((await h.post('/app/settings/payment-terms/2', { name: 'x', days: '1' })).status).toBe(403);
      expect((await h.get('/app/settings/payment-terms/%2e%2e%2F2')).status).toBe(404);
      expect(writes(h)).toHaveLength(0);
    });
  });
});

describe('settings: numbering and e-mail texts', () => {
  it('shows both sequences with their next number and saves one with PUT /numbering/{type}', async () => {
    await withPages(
      {
        api: (c) =>
          c.method === 'PUT'
            ? {
                status: 200,
                body: {
                  document_type: 'invoice',
                  pattern: 'R-{SEQ}',
                  reset: 'never',
                  next_value: 100,
                  next_number: 'R-100',
                  message: 'saved',
                },
              }
            : undefined,
      },
      async (h) => {
        const page = await h.get('/app/settings/numbering');
        expect(page.html).toContain('RE-2026-00042');
        expect(page.html).toContain('action="/app/settings/numbering/credit_note"');
        const posted = await h.post('/app/settings/numbering/invoice', { pattern: ' R-{SEQ} ', reset: 'never', next_value: '100' });
        expect(posted.status).toBe(303);
        expect(writes(h)[0]).toMatchObject({
          method: 'PUT',
          path: '/numbering/invoice',
          body: { pattern: 'R-{SEQ}', reset: 'never', next_value: 100 },
        });
        expect(h.takeFlash()?.text).toBe('Invoices: saved. The next number is R-100.');
        expect((await h.post('/app/settings/numbering/..%2Fcompany', { pattern: 'x' })).status).toBe(404);
        expect(writes(h)).toHaveLength(1);
      },
    );
  });

  it('names the pattern field when the API refuses it, in German', async () => {
    const refusal = { code: 'VALIDATION_ERROR', errors: [{ path: 'pattern', message: 'the pattern must contain {SEQ}' }] };
    await withPages({ lang: 'de', api: (c) => (c.method === 'PUT' ? { status: 400, body: refusal } : undefined) }, async (h) => {
      const posted = await h.post('/app/settings/numbering/invoice', { pattern: 'RE-', reset: 'yearly', next_value: '1' });
      expect(posted.status).toBe(400);
      expect(posted.html).toContain('Bitte prüfen Sie das Feld „Format“');
      expect(posted.html).toContain('value="RE-"');
    });
  });

  it('edits the German and English e-mail texts and restores the defaults after a confirmation', async () => {
    const { emailTexts } = await import('./fixtures');
    await withPages(
      { api: (c) => (c.method === 'PUT' || c.method === 'DELETE' ? { status: 200, body: emailTexts } : undefined) },
      async (h) => {
        const page = await h.get('/app/settings/email-texts');
        expect(page.html).toContain('Rechnung {number} von {seller}');
        expect(page.html).toContain('<code>{due_date}</code>');
        expect(page.html).toContain('href="/app/settings/email-texts/reset"');
        await h.post('/app/settings/email-texts', {
          de_subject: 'Rechnung {number}',
          de_body: 'Hallo\r\n\r\nTschüss',
          en_subject: 'Invoice {number}',
          en_body: '',
        });
        expect(writes(h)[0]).toMatchObject({
          method: 'PUT',
          path: '/invoice/email-texts',
          body: { de: { subject: 'Rechnung {number}', body: 'Hallo\n\nTschüss' }, en: { subject: 'Invoice {number}' } },
        });
        expect((await h.get('/app/settings/email-texts/reset')).html).toContain('action="/app/settings/email-texts/reset"');
        await h.post('/app/settings/email-texts/reset', {});
        expect(writes(h)[1]).toMatchObject({ method: 'DELETE', path: '/invoice/email-texts' });
      },
    );
    await withPages({ role: 'member', lang: 'de' }, async (h) => {
      const page = await h.get('/app/settings/email-texts');
      expect(page.html).toContain('Sehr geehrte Damen und Herren');
      expect(page.html).not.toContain('<textarea');
      expect((await h.post('/app/settings/email-texts', { de_subject: 'x' })).status).toBe(403);
      expect((await h.post('/app/settings/email-texts/reset', {})).status).toBe(403);
      expect(writes(h)).toHaveLength(0);
    });
  });
});

describe('settings: DATEV', () => {
  it('shows configuration, account mapping, export form and files to an owner', async () => {
    await withPages({}, async (h) => {
      const page = await h.get('/app/settings/datev');
      expect(page.status).toBe(200);
      expect(page.html).toContain('value="29098"');
      expect(page.html).toContain('Erlöse 19 % USt.');
      expect(page.html).toContain('<code>8337</code> <span class="badge off">changed</span>');
      expect(page.html).toContain('action="/app/settings/datev/exports"');
      expect(page.html).toContain('href="/app/settings/datev/downloads/7"');
      expect(page.html).toContain('1 Oct 2025 – 31 Dec 2025');
    });
  });

  it('saves the configuration as numbers and starts an export with its idempotency key, then shows the job', async () => {
    await withPages(
      {
        api: (c) =>
          c.method === 'PUT'
            ? {
                status: 200,
                body: {
                  consultant_number: 1234,
                  client_number: 1,
                  chart_of_accounts: 'SKR04',
                  fiscal_year_start_month: 7,
                  account_length: 5,
                  message: 'saved',
                },
              }
            : c.method === 'POST'
              ? { status: 201, body: { message: 'export job queued', job_id: JOB } }
              : undefined,
      },
      async (h) => {
        await h.post('/app/settings/datev/config', {
          consultant_number: '1234',
          client_number: '1',
          chart_of_accounts: 'SKR04',
          fiscal_year_start_month: '7',
          account_length: '5',
        });
        expect(writes(h)[0]).toMatchObject({
          method: 'PUT',
          path: '/datev/config',
          body: { consultant_number: 1234, client_number: 1, chart_of_accounts: 'SKR04', fiscal_year_start_month: 7, account_length: 5 },
        });
        const page = await h.get('/app/settings/datev');
        const idem = /name="idem" value="([0-9a-f-]{36})"/.exec(page.html)![1]!;
        const posted = await h.post('/app/settings/datev/exports', {
          idem,
          start_date: '2025-10-01',
          end_date: '2026-03-31',
          include_master_data: '1',
        });
        expect(posted.location).toBe(`/app/settings/datev/jobs/${JOB}`);
        expect(writes(h)[1]).toMatchObject({
          method: 'POST',
          path: '/exports/job',
          idempotencyKey: idem,
          body: {
            task: 'process_acctexp_export_job',
            start_date: '2025-10-01',
            end_date: '2026-03-31',
            include_master_data: true,
            include_documents: false,
            only_new: false,
          },
        });
        const job = await h.get(`/app/settings/datev/jobs/${JOB}`);
        expect(job.html).toContain('finished');
        expect(job.html).toContain('href="/app/settings/datev/downloads/8"');
        expect((await h.get('/app/settings/datev/jobs/..%2F..%2Fcompany')).status).toBe(404);
      },
    );
  });

  it('streams an export file with its name as an attachment, and deletes one after a confirmation', async () => {
    let gateway = '';
    const zip = Buffer.from('PK\u0003\u0004 a zip');
    const h = await pageHarness({
      register: (r, k) => {
        gateway = k.deps.gatewayUrl;
        registerSettingsPages(r, k);
      },
      api: (c) => {
        if (c.path === '/downloads/7/download')
          return {
            status: 200,
            body: { url: `${gateway}/store/7.zip?sig=x`, filename: 'DATEV_EXTF_29098_55003_20251001_20251231.zip', expires_in: 300 },
          };
        if (c.path === '/store/7.zip?sig=x') return { status: 200, raw: zip, contentType: 'application/octet-stream' };
        if (c.method === 'DELETE') return { status: 200, body: { message: 'download 7 deleted' } };
        return settingsApi(c);
      },
    });
    try {
      const res = await fetch(`${h.url}/app/settings/datev/downloads/7`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/zip');
      expect(res.headers.get('content-disposition')).toContain('attachment; filename="DATEV_EXTF_29098_55003_20251001_20251231.zip"');
      expect(Buffer.from(await res.arrayBuffer()).equals(zip)).toBe(true);
      expect((await h.get('/app/settings/datev/downloads/99')).status).toBe(404);
      expect((await h.get('/app/settings/datev/downloads/%2e%2e%2F7')).status).toBe(404);
      expect((await h.get('/app/settings/datev/downloads/7/delete')).html).toContain('DATEV_EXTF_29098_55003_20251001_20251231.zip');
      await h.post('/app/settings/datev/downloads/7/delete', {});
      expect(writes(h).map((c) => `${c.method} ${c.path}`)).toEqual(['DELETE /downloads/7']);
    } finally {
      await h.close();
    }
  });

  it('lets a member export, and refuses a viewer (German) without calling the API', async () => {
    await withPages({ role: 'member' }, async (h) => {
      const page = await h.get('/app/settings/datev');
      expect(page.html).toContain('action="/app/settings/datev/exports"');
      expect(page.html).toContain('action="/app/settings/datev/config"');
    });
    await withPages({ role: 'viewer', lang: 'de' }, async (h) => {
      const page = await h.get('/app/settings/datev');
      expect(page.status).toBe(403);
      expect(page.html).toContain('Ihre Rolle darf das nicht');
      expect((await h.post('/app/settings/datev/exports', { start_date: '2025-01-01', end_date: '2025-12-31' })).status).toBe(403);
      expect((await h.post('/app/settings/datev/config', { consultant_number: '1234' })).status).toBe(403);
      expect((await h.get('/app/settings/datev/downloads/7')).status).toBe(403);
      expect(h.calls).toHaveLength(0);
    });
  });

  it('changes the account mapping with PUT /acctexp/mappings (numbers, rates as sent) and restores the standard accounts', async () => {
    const { mappings } = await import('./fixtures');
    await withPages(
      { role: 'member', api: (c) => (c.method !== 'GET' ? { status: 200, body: { ...mappings, message: 'saved' } } : undefined) },
      async (h) => {
        expect((await h.get('/app/settings/datev')).html).toContain('href="/app/settings/datev/accounts"');
        const page = await h.get('/app/settings/datev/accounts');
        expect(page.status).toBe(200);
        expect(page.html).toContain('<input type="hidden" name="t0" value="standard"><input type="hidden" name="r0" value="0.19">');
        expect(page.html).toContain('value="8337"');
        const posted = await h.post('/app/settings/datev/accounts', {
          t0: 'standard',
          r0: '0.19',
          a0: '8400',
          t1: 'reverse_charge',
          r1: '',
          a1: '8338',
          t2: '../x',
          r2: '',
          a2: '1',
          debtor_accounts: 'collective',
          receivables_account: '1400',
          collective_debtor_account: '10000',
          bank_account: '1200',
          discount_account_standard: '8736',
          discount_account_reduced: '8731',
          discount_account_untaxed: '8730',
          expense_account: '4900',
        });
        expect(posted.status).toBe(303);
        expect(writes(h)[0]).toMatchObject({
          method: 'PUT',
          path: '/acctexp/mappings',
          body: {
            mappings: [
              { tax_treatment: 'standard', tax_rate: 0.19, account: 8400 },
              { tax_treatment: 'reverse_charge', account: 8338 },
            ],
            debtor_accounts: 'collective',
            collective_debtor_account: 10000,
            expense_account: 4900,
          },
        });
        expect((await h.get('/app/settings/datev/accounts/reset')).html).toContain('action="/app/settings/datev/accounts/reset"');
        await h.post('/app/settings/datev/accounts/reset', {});
        expect(writes(h)[1]).toMatchObject({ method: 'POST', path: '/acctexp/mappings/reset' });
      },
    );
    await withPages({ role: 'viewer', lang: 'de' }, async (h) => {
      expect((await h.get('/app/settings/datev/accounts')).status).toBe(403);
      expect((await h.post('/app/settings/datev/accounts', { t0: 'standard', a0: '1' })).status).toBe(403);
      expect((await h.post('/app/settings/datev/accounts/reset', {})).status).toBe(403);
      expect(h.calls).toHaveLength(0);
    });
  });

  it('shows the API refusal of an export period', async () => {
    const refusal = { code: 'VALIDATION_ERROR', errors: [{ path: 'end_date', message: 'must not be before start_date' }] };
    await withPages({ lang: 'de', api: (c) => (c.method === 'POST' ? { status: 400, body: refusal } : undefined) }, async (h) => {
      const posted = await h.post('/app/settings/datev/exports', { start_date: '2026-01-01', end_date: '2025-01-01' });
      expect(posted.status).toBe(400);
      expect(posted.html).toContain('Bitte prüfen Sie das Feld „Bis (Rechnungsdatum)“');
      expect(posted.html).toContain('value="2025-01-01"');
    });
  });
});
