import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { peerBus, waitFor } from '@inv/testing';
import { ARTIFACTS, CHROMIUM, haveChromium, launchChromium } from '../support/browser';
import { apiClient, startSystem, type System } from '../support/system';

jest.setTimeout(420_000);

/** The e-invoice conformance kit inbound-service checks with: INBOUND_CONFORMANCE_DIR, or shared/conformance above this checkout. */
function conformanceKit(): string | undefined {
  if (process.env.INBOUND_CONFORMANCE_DIR) return process.env.INBOUND_CONFORMANCE_DIR;
  for (let dir = resolve(__dirname, '../..'); dir !== dirname(dir); dir = dirname(dir))
    if (existsSync(join(dir, 'shared/conformance/validate'))) return join(dir, 'shared/conformance');
  return undefined;
}

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
/**
 * axe-core's serious and critical violations (WCAG 2.1 A and AA), as apps/web/src/testing/browser.ts finds them; here
 * evaluated rather than added as a script tag, as the gateway's Content-Security-Policy (kept on) refuses inline scripts.
 */
async function seriousViolations(page: Page): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  if (!(await page.evaluate<boolean>('typeof window.axe === "object"'))) await page.evaluate(AXE);
  const found = await page.evaluate<{ id: string; impact: string; nodes: string[] }[]>(`(async () => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  })()`);
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

if (!haveChromium) console.warn(`\n!!! ${CHROMIUM} not found: the dashboard browser test is SKIPPED (apt-get install chromium) !!!\n`);

type Role = 'owner' | 'admin' | 'member' | 'viewer';
type Lang = 'en' | 'de';
const ROLES: Role[] = ['owner', 'admin', 'member', 'viewer'];
const PASSWORD = 'a long enough password';
const EMAIL: Record<Role, string> = {
  owner: 'owner@haustechnik.example',
  admin: 'admin@haustechnik.example',
  member: 'member@haustechnik.example',
  viewer: 'viewer@haustechnik.example',
};
const T = {
  en: {
    mainNav: 'Main',
    forbidden: 'Your role may not do this',
    signOut: 'Sign out',
    language: 'English',
    search: 'Search',
    apply: 'Apply filters',
    finalize: 'Finalize',
    recordPayment: 'Record payment',
    nav: {
      invoices: 'Invoices',
      customers: 'Customers',
      received: 'Received',
      bank: 'Bank',
      reminders: 'Reminders',
      recurring: 'Recurring',
      settings: 'Settings',
      members: 'Members',
      developers: 'Developers',
    },
    sub: {
      reminders: ['To do', 'Sent reminders'],
      settings: ['Company', 'Bank accounts', 'Payment terms', 'Numbering', 'E-mail texts', 'DATEV'],
      developers: ['API keys', 'Webhooks', 'Request log', 'Test e-mails'],
    },
  },
  de: {
    mainNav: 'Hauptmenü',
    forbidden: 'Ihre Rolle darf das nicht',
    signOut: 'Abmelden',
    language: 'Deutsch',
    search: 'Suche',
    apply: 'Filter anwenden',
    finalize: 'Festschreiben',
    recordPayment: 'Zahlungseingang erfassen',
    nav: {
      invoices: 'Rechnungen',
      customers: 'Kunden',
      received: 'Eingang',
      bank: 'Bank',
      reminders: 'Mahnungen',
      recurring: 'Serien',
      settings: 'Einstellungen',
      members: 'Mitglieder',
      developers: 'Entwickler',
    },
    sub: {
      reminders: ['Offen', 'Versendete Mahnungen'],
      settings: ['Unternehmen', 'Bankkonten', 'Zahlungsbedingungen', 'Nummernkreise', 'E-Mail-Texte', 'DATEV'],
      developers: ['API-Schlüssel', 'Webhooks', 'Anfrageprotokoll', 'Test-E-Mails'],
    },
  },
} as const;

/** The pages a role may not open (the 403 page in the page's language): the same table as the gateway's. */
const refusedFor: Record<Role, string[]> = {
  owner: [],
  admin: [],
  member: ['/app/keys', '/app/webhooks'],
  viewer: ['/app/keys', '/app/webhooks', '/app/settings/datev'],
};
const KIT = conformanceKit();
/** Screenshots are kept for these (role/language); the others only check for sideways scrolling and axe-core. */
const SHOTS = new Set(['owner/en', 'viewer/de']);
/** axe-core runs once per role (what a role sees differs by its actions, hardly by the language): in these. */
const AXE_FOR = new Set(['owner/en', 'admin/de', 'member/en', 'viewer/de']);

/**
 * The whole dashboard in a real browser against every service as separate processes: a Pro company's owner
 * accepts the invitation, invites an admin, a member and a viewer through the members page, each signs in through
 * their own invitation; every role walks every section and sub page from the navigation in German and English (200,
 * or the 403 page in the page's language where the role may not look), never scrolling sideways at 390 px and
 * axe-core clean. The invoice is found by number and by customer name; a member finalizes a draft and records a
 * payment through the page forms; a viewer gets no action and forged POSTs answer 403 in German with nothing
 * changed. A signed-out session's cookie opens nothing any more.
 */
(haveChromium ? describe : describe.skip)('e2e: the dashboard for every role in headless Chromium', () => {
  let system: System;
  let browser: Browser;
  let peer: Bus<Messages>;
  const mails: { to: string; text: string }[] = [];
  /** The company's owner key (account.create-company.v1 answers with it). */
  let apiKey = '';
  const api = apiClient(
    () => system.base,
    () => apiKey,
  );
  const company = `cmp_${randomBytes(12).toString('hex')}`;
  const app = () => system.base.replace(/\/api\/v1$/, '/app');
  const contexts = new Map<Role, BrowserContext>();
  const pages = new Map<Role, Page>();
  const ids = { customer: 0, draft: 0, draft2: 0, open: 0, number: '' };
  const CUSTOMER = 'Müller & Söhne Haustechnik und Gebäudeautomation GmbH';
  const timings: string[] = [];
  const consoleErrors: string[] = [];
  const t0 = Date.now();
  const mark = (what: string) => timings.push(`${what}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  // the mail module (invoice-service) delivers the invitation e-mails to this SMTP server
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      void simpleParser(stream).then(
        (m) => {
          const to = Array.isArray(m.to) ? m.to[0] : m.to;
          mails.push({ to: to?.value[0]?.address ?? '', text: m.text ?? '' });
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });

  beforeAll(async () => {
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    const smtpPort = (smtp as unknown as { server: { address(): AddressInfo } }).server.address().port;
    system = await startSystem({
      kind: 'dashboard',
      services: [
        'account',
        'quota',
        'customer',
        'invoice',
        'document',
        'vat',
        'export',
        'inbound',
        'recurring',
        'webhook',
        'gateway',
        'web',
      ],
      env: {
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        ...(KIT ? { INBOUND_CONFORMANCE_DIR: KIT } : {}),
      },
      stdio: process.env.TEST_LOG_LEVEL ? 'inherit' : 'ignore',
    });
    mark('system started');
    // plays the operator: creates the company
    peer = peerBus(system.prefix);
    await peer.start();
    const created = await peer.callRpc('account.create-company.v1', company, {
      name: 'Nordlicht Haustechnik GmbH',
      ownerEmail: EMAIL.owner,
      plan: 'pro',
    });
    apiKey = created.apiKey!;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await peer?.stop();
    await system?.stop();
    await new Promise<void>((r) => smtp.close(() => r()));
    console.log(timings.join('\n'));
  });

  const invoice = async (positions: number) => {
    const created = await api('POST', '/invoice/', { customer_id: ids.customer, invoice_format: 'ZUGFERD' });
    expect(created.status).toBe(201);
    const id = created.body.invoice_id as number;
    for (let i = 1; i <= positions; i++) {
      const position = {
        title: `Wartung der Lüftungsanlage, Gebäude ${i} (Quartalspauschale inkl. Filterwechsel)`,
        quantity: i,
        unit_id: 'HUR',
        unit_net_amount: 95,
        tax_rate: 0.19,
      };
      expect((await api('POST', `/invoice/${id}/positions`, position)).status).toBe(201);
    }
    return id;
  };

  it('sets up a customer, invoices, a recurring invoice, a received e-invoice and a bank statement through the API', async () => {
    const profile = await api('PUT', '/company/', {
      legal_name: 'Nordlicht Haustechnik GmbH',
      address: { line1: 'Lindenstraße 7', postal_code: '50674', city: 'Köln', country_code: 'DE' },
      vat_id: 'DE123456789',
      tax_number: '214/5678/1234',
      registration_court: 'Amtsgericht Köln',
      registration_id: 'HRB 99887',
      managing_directors: ['Jana Neu'],
      contact_name: 'Jana Neu',
      email: 'buchhaltung@haustechnik.example',
      phone: '+49 221 987654',
    });
    expect(profile.status).toBe(200);
    const bank = await api('POST', '/company/bank-accounts', { iban: 'DE44500105175407324931', bic: 'INGDDEFFXXX', bank_name: 'ING' });
    expect(bank.status).toBe(201);
    const customer = await api('POST', '/customer/', {
      organization_name: CUSTOMER,
      email: 'buchhaltung@mueller-soehne.example',
      contact_type: 'B2B',
      language: 'German',
    });
    expect(customer.status).toBe(201);
    ids.customer = customer.body.id;
    expect(
      (
        await api('POST', `/customer/${ids.customer}/addresses`, {
          address_line_1: 'Hauptstraße 5',
          city: 'München',
          postal_code: '80331',
          country_code: 'DE',
          is_default: true,
        })
      ).status,
    ).toBe(201);
    ids.draft = await invoice(2);
    ids.draft2 = await invoice(1);
    ids.open = await invoice(3);
    const job = await api('POST', `/invoice/${ids.open}/job`, { task: 'process_invoice_flag_invoice_send_job' });
    expect(job.status).toBe(201);
    await waitFor(async () => (await api('GET', `/invoice/${ids.open}/job/${job.body.job_id}`)).body.status === 'finished', {
      timeoutMs: 120_000,
      what: 'finalization',
    });
    const open = (await api('GET', `/invoice/${ids.open}`)).body;
    expect(open.status).toBe('OPEN');
    ids.number = open.invoice_number;

    const next = new Date();
    next.setUTCMonth(next.getUTCMonth() + 1, 1);
    const recurring = await api('POST', '/recurring-invoices/', {
      name: 'Wartungsvertrag Lüftung',
      template: {
        customer_id: ids.customer,
        invoice_format: 'ZUGFERD',
        positions: [{ title: 'Wartungspauschale', quantity: 1, unit_id: 'MON', unit_net_amount: 240, tax_rate: 0.19 }],
      },
      schedule: { interval: 'monthly', day_of_month: 1, start_date: next.toISOString().slice(0, 10) },
      auto_finalize: false,
    });
    expect(recurring.status).toBe(201);

    // a received e-invoice: the PDF this system issued (ZUGFeRD), received back
    const pdf = Buffer.from(await (await fetch((await api('GET', `/invoice/${ids.open}/pdf-link`)).body.url)).arrayBuffer());
    const received = await fetch(`${system.base}/inbound/`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/pdf' },
      body: pdf,
    });
    expect(received.status).toBe(202);
    let inbound = (await received.json()) as { id: number; status: string };
    while (inbound.status === 'queued' || inbound.status === 'started')
      inbound = (await api('GET', `/inbound/${inbound.id}/job?wait=25`)).body as typeof inbound;
    expect(inbound.status).toBe('finished');

    // a camt.053 bank statement naming the open invoice's amount
    const today = new Date().toISOString().slice(0, 10);
    const camt = readFileSync(resolve(__dirname, '../../apps/invoice-service/src/testing/camt053-fixture.xml'), 'utf8')
      .replaceAll('2026-11-26', today)
      .replaceAll('RE-2026-0001', ids.number);
    const statement = await fetch(`${system.base}/bank-statements/`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/xml' },
      body: camt,
    });
    expect(statement.status).toBe(201);
    mark('data set up');
  });

  const tokenFor = async (email: string) => {
    const mail = await waitFor(() => mails.find((m) => m.to === email), { what: `invitation to ${email}` });
    return /accept-invitation#token=([\w-]{43})/.exec(mail.text)![1];
  };
  const acceptInvitation = async (role: Role) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // a script or style the Content-Security-Policy refuses, or a script error, shows here (a 403 or 404 answer is expected)
    page.on(
      'console',
      (m) => void (m.type() === 'error' && !/^Failed to load resource/.test(m.text()) && consoleErrors.push(`${role}: ${m.text()}`)),
    );
    page.on('pageerror', (e) => void consoleErrors.push(`${role}: ${e.message}`));
    await page.goto(`${app()}/accept-invitation?lang=en#token=${await tokenFor(EMAIL[role])}`);
    await page.locator('#invitation').waitFor({ state: 'visible' });
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForURL(/\/app\/invoices$/);
    contexts.set(role, context);
    pages.set(role, page);
    return page;
  };

  it('the owner accepts the invitation and invites an admin, a member and a viewer, who each accept theirs', async () => {
    const owner = await acceptInvitation('owner');
    await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
    await owner.waitForURL(/\/app\/members$/);
    for (const role of ['admin', 'member', 'viewer'] as const) {
      await owner.getByLabel('E-mail address').fill(EMAIL[role]);
      await owner.getByLabel('Role', { exact: true }).selectOption(role);
      await owner.getByRole('button', { name: 'Invite' }).click();
      await owner.waitForURL(/\/app\/members$/);
      expect(await owner.getByRole('status').textContent()).toContain(`Invitation sent to ${EMAIL[role]}`);
    }
    for (const role of ['admin', 'member', 'viewer'] as const) await acceptInvitation(role);
    const members = (await api('GET', '/members/')).body.members as { email: string; role: string; status: string }[];
    for (const role of ROLES) expect(members).toContainEqual(expect.objectContaining({ email: EMAIL[role], role, status: 'active' }));
    mark('members signed in');
  });

  /**
   * The page as it is now: at 1280 and 390 px it never scrolls sideways, and axe-core finds no serious violation.
   * With `shot`, screenshots at both widths (test-artifacts/dashboard-<name>-<width>.png).
   */
  const look = async (page: Page, name: string, shot: boolean, axe = true) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
      const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
      if (scrollWidth > width) throw new Error(`${name} scrolls sideways at ${width} px (${scrollWidth} px wide)`);
      if (shot) await page.screenshot({ path: resolve(ARTIFACTS, `dashboard-${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    if (!axe) return;
    const violations = await seriousViolations(page);
    if (violations.length) throw new Error(`${name}: axe-core found ${JSON.stringify(violations, null, 1)}`);
  };

  /** Clicks a link and waits for the page it opens; its HTTP status. */
  const follow = async (page: Page, link: ReturnType<Page['getByRole']>) => {
    const href = (await link.getAttribute('href'))!;
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().isNavigationRequest() && new URL(r.url()).pathname === href),
      link.click(),
    ]);
    await page.waitForLoadState('load');
    return { href, status: answer.status() };
  };

  /** To the language by the header's switch. */
  const toLang = async (page: Page, lang: Lang) => {
    if ((await page.locator('html').getAttribute('lang')) !== lang) {
      await page.getByRole('link', { name: T[lang].language, exact: true }).click();
      await page.waitForLoadState('load');
    }
    expect(await page.locator('html').getAttribute('lang')).toBe(lang);
  };

  const walk = async (role: Role, lang: Lang) => {
    const page = pages.get(role)!;
    const t = T[lang];
    const shot = SHOTS.has(`${role}/${lang}`);
    await toLang(page, lang);
    const seen: string[] = [];
    const check = async (href: string, status: number, label: string) => {
      seen.push(`${href} ${status}`);
      const text = (await page.getByRole('status').textContent()) ?? '';
      if (refusedFor[role].includes(href)) {
        expect([href, status]).toEqual([href, 403]);
        expect(text).toContain(t.forbidden);
      } else {
        expect([href, status]).toEqual([href, 200]);
        expect(text).not.toContain(t.forbidden);
      }
      await look(page, `${role}-${lang}-${label}`, shot, AXE_FOR.has(`${role}/${lang}`));
    };
    for (const [key, name] of Object.entries(t.nav)) {
      const { href, status } = await follow(
        page,
        page.getByRole('navigation', { name: t.mainNav }).getByRole('link', { name, exact: true }),
      );
      await check(href, status, key);
      const subs: readonly string[] = key in t.sub ? t.sub[key as keyof typeof t.sub] : [];
      for (const sub of subs) {
        const link = page.getByRole('navigation', { name }).getByRole('link', { name: sub, exact: true });
        if ((await link.count()) === 0) {
          // a role that may not manage keys or webhooks is not offered them; typed in, the page answers 403
          const hidden = sub === t.sub.developers[0] ? '/app/keys' : sub === t.sub.developers[1] ? '/app/webhooks' : undefined;
          expect([sub, hidden !== undefined && refusedFor[role].includes(hidden)]).toEqual([sub, true]);
          const answer = await page.goto(`${app()}${hidden!.slice('/app'.length)}`);
          await check(hidden!, answer!.status(), `${key}-${hidden!.split('/').pop()}`);
          await page.goBack();
          continue;
        }
        const { href: subHref, status: subStatus } = await follow(page, link);
        await check(subHref, subStatus, subHref === '/app/settings' ? 'settings-profile' : `${key}-${subHref.split('/').pop()}`);
      }
    }
    return seen;
  };

  it.each(ROLES.flatMap((role) => (['en', 'de'] as const).map((lang) => [role, lang] as const)))(
    'as %s in %s, every section and sub page from the navigation',
    async (role, lang) => {
      const seen = await walk(role, lang);
      expect(seen.length).toBeGreaterThanOrEqual(21);
      expect(consoleErrors).toEqual([]);
      mark(`walked ${role}/${lang}`);
    },
  );

  /** The invoice list's search form; the links to invoices it lists. */
  const search = async (page: Page, lang: Lang, text: string) => {
    const t = T[lang];
    await toLang(page, lang);
    await follow(page, page.getByRole('navigation', { name: t.mainNav }).getByRole('link', { name: t.nav.invoices, exact: true }));
    await page.getByRole('searchbox', { name: t.search }).fill(text);
    await page.getByRole('button', { name: t.apply }).click();
    await page.waitForURL(/\/app\/invoices\?/);
    return page.locator('main table a[href^="/app/invoices/"]');
  };

  it('a viewer finds the invoice by number and by customer, sees no action, and forged POSTs answer 403 in German', async () => {
    const page = pages.get('viewer')!;
    const byNumber = await search(page, 'de', ids.number);
    expect(await byNumber.count()).toBe(1);
    expect(await byNumber.textContent()).toContain(ids.number);
    const byCustomer = await search(page, 'de', 'Söhne Haustechnik');
    // the draft, the second draft and the finalized invoice of that customer
    expect(await byCustomer.count()).toBe(3);
    await byCustomer.filter({ hasText: ids.number }).click();
    await page.waitForURL(new RegExp(`/app/invoices/${ids.open}$`));
    await look(page, 'viewer-de-invoice', true);
    const noActions = async () => {
      for (const name of ['Festschreiben', 'Zahlungseingang erfassen', 'Per E-Mail senden', 'Gutschrift erstellen', 'Entwurf stornieren'])
        expect([name, await page.getByRole('link', { name }).count()]).toEqual([name, 0]);
      expect(await page.locator('main form[method=post]').count()).toBe(0);
    };
    await noActions();
    // the draft offers the viewer nothing either (a finalize or cancel link would show for a member)
    await page.goto(`${app()}/invoices/${ids.draft2}`);
    await noActions();

    const before = {
      draft: (await api('GET', `/invoice/${ids.draft2}`)).body,
      open: (await api('GET', `/invoice/${ids.open}`)).body,
      members: (await api('GET', '/members/')).body.members.length,
      keys: (await api('GET', '/company/api-keys')).body,
    };
    const csrf = (await page.locator('input[name=csrf]').first().getAttribute('value'))!;
    const forged = await page.evaluate(
      async ({ csrf, draft, open, number }) => {
        const post = async (path: string, fields: Record<string, string>) => {
          const res = await fetch(path, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ csrf, ...fields }).toString(),
            redirect: 'manual',
          });
          return { path, status: res.status, forbidden: (await res.text()).includes('Ihre Rolle darf das nicht') };
        };
        return [
          await post(`/app/invoices/${draft}/finalize`, { idem: crypto.randomUUID() }),
          await post(`/app/invoices/${open}/payment`, {
            idem: crypto.randomUUID(),
            amount: '10,00',
            date: new Date().toISOString().slice(0, 10),
            method: 'BANK_TRANSFER',
            reference: number,
          }),
          await post('/app/members', { email: 'sneaky@haustechnik.example', role: 'admin' }),
          await post('/app/keys', { name: 'sneaky', role: 'owner' }),
        ];
      },
      { csrf, draft: ids.draft2, open: ids.open, number: ids.number },
    );
    for (const f of forged) expect(f).toEqual({ path: f.path, status: 403, forbidden: true });
    // nothing changed
    expect((await api('GET', `/invoice/${ids.draft2}`)).body).toMatchObject({ status: 'DRAFT' });
    expect((await api('GET', `/invoice/${ids.open}`)).body).toMatchObject({
      status: before.open.status,
      open_amount: before.open.open_amount,
    });
    expect((await api('GET', '/members/')).body.members).toHaveLength(before.members);
    expect((await api('GET', '/company/api-keys')).body).toEqual(before.keys);
    expect(before.draft.status).toBe('DRAFT');
    expect(mails.some((m) => m.to === 'sneaky@haustechnik.example')).toBe(false);
    mark('viewer checked');
  });

  it('a member finalizes the draft and records a payment through the page forms', async () => {
    const page = pages.get('member')!;
    await search(page, 'en', CUSTOMER);
    await page.goto(`${app()}/invoices/${ids.draft}`);
    await follow(page, page.getByRole('link', { name: 'Finalize', exact: true }));
    await page.getByRole('button', { name: 'Finalize' }).click();
    await page.waitForURL(new RegExp(`/app/invoices/${ids.draft}$`));
    await waitFor(async () => (await api('GET', `/invoice/${ids.draft}`)).body.status === 'OPEN', { what: 'the draft finalized' });

    const byNumber = await search(page, 'en', ids.number);
    await byNumber.first().click();
    await page.waitForURL(new RegExp(`/app/invoices/${ids.open}$`));
    await follow(page, page.getByRole('link', { name: 'Record payment', exact: true }));
    await page.getByLabel('Amount received (EUR)').fill('100.00');
    await page.getByRole('button', { name: 'Record payment' }).click();
    await page.waitForURL(new RegExp(`/app/invoices/${ids.open}$`));
    expect(await page.getByRole('status').textContent()).toContain('Payment recorded');
    await look(page, 'member-en-invoice-paid', false);
    const after = (await api('GET', `/invoice/${ids.open}`)).body;
    expect(after.paid_amount).toBe(100);
    mark('member acted');
  });

  it('signs out, and the old session cookie opens nothing any more', async () => {
    const context = contexts.get('owner')!;
    const page = pages.get('owner')!;
    await page.goto(`${app()}/invoices?lang=en`);
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const before = await fetch(`${app()}/invoices`, { headers: { cookie }, redirect: 'manual' });
    expect(before.status).toBe(200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/app/invoices'));
    const after = await fetch(`${app()}/invoices`, { headers: { cookie }, redirect: 'manual' });
    expect(after.status).not.toBe(200);
    expect(await after.text()).not.toContain(ids.number);
    mark('signed out');
  });
});
