import { resolve } from 'node:path';
import Redis from 'ioredis';
import { type Browser, type Page } from 'playwright-core';
import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { peerBus, waitFor } from '@inv/testing';
import { ARTIFACTS, CHROMIUM, haveChromium, launchChromium } from '../support/browser';
import { apiClient, startSystem, type System } from '../support/system';

jest.setTimeout(240_000);

if (!haveChromium) console.warn(`\n!!! ${CHROMIUM} not found: the web app browser test is SKIPPED (apt-get install chromium) !!!\n`);

/**
 * The web app's account settings in a real browser against account-service, quota-service and the gateway as
 * separate processes: an owner accepts the invitation e-mail, signs in, creates a key, uses it, revokes it in
 * the page and the same request answers 401; another company's owner never sees those keys or members.
 */
(haveChromium ? describe : describe.skip)('e2e: web app account settings in headless Chromium', () => {
  let system: System;
  let browser: Browser;
  let peer: Bus<Messages>;
  const mails: { to: string; text: string }[] = [];
  const api = apiClient(
    () => system.base,
    () => system.apiKey,
  );
  const app = () => system.base.replace(/\/api\/v1$/, '/app');
  const suffix = Date.now().toString(16);
  const companyA = `cmp_weba_${suffix}`;
  const companyB = `cmp_webb_${suffix}`;

  beforeAll(async () => {
    system = await startSystem({
      kind: 'webapp',
      services: ['account', 'quota', 'gateway', 'web'],
      env: { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn' },
      stdio: process.env.TEST_LOG_LEVEL ? 'inherit' : 'ignore',
    });
    peer = peerBus(system.prefix);
    // plays the mail module: the invitation e-mails arrive here
    peer.onCommand('mail.send.v1', async (msg) => void mails.push({ to: msg.data.to[0]!, text: msg.data.text }));
    await peer.start();
    await peer.callRpc('account.create-company.v1', companyA, { name: 'Alpha GmbH', ownerEmail: 'owner@alpha.example', plan: 'pro' });
    await peer.callRpc('account.create-company.v1', companyB, { name: 'Beta GmbH', ownerEmail: 'owner@beta.example', plan: 'pro' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await peer?.stop();
    await system?.stop();
  });

  const tokenFor = async (email: string) => {
    const mail = await waitFor(() => mails.find((m) => m.to === email), { what: `invitation to ${email}` });
    return /accept-invitation#token=([\w-]{43})/.exec(mail.text)![1];
  };
  /**
   * Screenshots at 1280 and 390 px (test-artifacts/webapp-<name>-<width>.png); at 390 px the page never scrolls
   * sideways (tables become cards, the header wraps). No pixel comparison: a few are kept in
   * test/e2e/__screenshots__/ as references for a reviewer.
   */
  const shots = async (page: Page, name: string) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      if (width === 390) expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await page.screenshot({ path: resolve(ARTIFACTS, `webapp-${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  };
  const acceptAndSignIn = async (page: Page, email: string, lang: 'en' | 'de' = 'en', shown?: string[], shot?: string) => {
    await page.goto(`${app()}/accept-invitation?lang=${lang}#token=${await tokenFor(email)}`);
    if (shown) {
      // the page names the company, the address and the role the link is for
      const invitation = page.locator('#invitation');
      await invitation.waitFor({ state: 'visible' });
      for (const text of [email, ...shown]) expect(await invitation.textContent()).toContain(text);
      if (shot) await shots(page, shot);
    }
    await page.getByLabel(lang === 'de' ? 'Neues Passwort' : 'New password').fill('a long enough password');
    await page.getByRole('button', { name: lang === 'de' ? 'Passwort festlegen und anmelden' : 'Set password and sign in' }).click();
    await page.waitForURL(/\/app\/invoices$/);
    await page.goto(`${app()}/keys`);
  };

  it('signs in, creates a key, uses it, revokes it in the page, and the same request answers 401', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(r.url()));
    // the page after sign-in is the invoice list, whose service this system does not run (its 502 is expected)
    page.on('console', (m) => void (m.type() === 'error' && !page.url().endsWith('/app/invoices') && failed.push(`console: ${m.text()}`)));
    const css = await fetch(`${app()}/app.css`);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(css.headers.get('cache-control')).toBe('no-cache'); // the page's versioned URL may be cached for a year
    await acceptAndSignIn(page, 'owner@alpha.example', 'en', ['Alpha GmbH', 'as Owner'], 'accept-invitation');
    const stylesheet = (await page.locator('link[rel=stylesheet]').getAttribute('href'))!;
    expect((await fetch(`${app()}${stylesheet.slice('/app'.length)}`)).headers.get('cache-control')).toMatch(/max-age=31536000/);

    // the key the operator created is listed; a new one is created by name, and the POST redirects to the page
    await page.getByLabel('Name (what the key is for)').fill('ERP production');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.waitForURL(/\/app\/keys$/);
    const secret = (await page.locator('#secret').textContent())!;
    expect(secret).toMatch(/^ak_live_[0-9a-f]{32}$/);
    expect(page.url()).not.toContain(secret);
    await expect(page.getByRole('status').textContent()).resolves.toContain('The key "ERP production" was created.');
    await page.getByRole('button', { name: 'Copy' }).click();
    await shots(page, 'keys-new-secret');
    expect(await api('GET', '/company/', undefined, secret)).toMatchObject({ status: 200, body: { name: 'Alpha GmbH' } });
    // a reload creates no second key, and the secret is gone (shown once)
    await page.reload();
    expect(await page.locator('#secret').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    expect(await page.getByRole('link', { name: 'Revoke: ERP production' }).count()).toBe(1);

    // between the POST and the GET the secret waits in Redis encrypted, its key in the browser's cookie only
    const csrf = (await page.locator('input[name=csrf]').first().getAttribute('value'))!;
    const failedBefore = failed.length;
    const posted = await page.evaluate(async (csrf) => {
      const res = await fetch('/app/keys', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf, name: 'second tool', role: 'member' }).toString(),
        redirect: 'manual',
      });
      return res.type;
    }, csrf);
    expect(posted).toBe('opaqueredirect');
    // Chromium reports a redirect that fetch was told not to follow as a failed request: this probe's, not the page's
    expect(failed.slice(failedBefore)).toEqual([expect.stringMatching(/\/app\/keys$/)]);
    failed.length = failedBefore;
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    try {
      const keys = await redis.keys(`${system.prefix}:*`);
      expect(keys.some((k) => k.includes('webflash:'))).toBe(true);
      for (const k of keys) if ((await redis.type(k)) === 'string') expect(await redis.get(k)).not.toMatch(/ak_live_[0-9a-f]{32}/);
    } finally {
      redis.disconnect();
    }
    await page.goto(`${app()}/keys`);
    expect(await page.locator('#secret').textContent()).toMatch(/^ak_live_[0-9a-f]{32}$/);
    await page.reload();
    expect(await page.locator('#secret').count()).toBe(0);

    // revoke with confirmation, by keyboard
    await page.getByRole('link', { name: 'Revoke: ERP production' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/revoke$/);
    await shots(page, 'revoke-confirm');
    await page.getByRole('button', { name: 'Revoke' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/app\/keys$/);
    await expect(page.getByRole('status').textContent()).resolves.toContain('The key was revoked.');
    await page.screenshot({ path: resolve(ARTIFACTS, 'webapp-revoked-1280.png'), fullPage: true });
    expect((await api('GET', '/company/', undefined, secret)).status).toBe(401);
    await page.reload(); // the message was for one page
    expect(await page.getByRole('status').textContent()).toBe('');

    // members: invite one; the page lists them, a reload invites nobody again
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByLabel('E-mail address').fill('anna@alpha.example');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.waitForURL(/\/app\/members$/);
    await expect(page.getByRole('status').textContent()).resolves.toContain('Invitation sent to anna@alpha.example');
    expect(await page.locator('td[data-label="E-mail address"]', { hasText: 'anna@alpha.example' }).count()).toBe(1);
    await shots(page, 'members');
    await page.reload();
    expect(await page.getByRole('status').textContent()).toBe('');
    expect(await page.locator('td[data-label="E-mail address"]', { hasText: 'anna@alpha.example' }).count()).toBe(1);
    expect(mails.filter((m) => m.to === 'anna@alpha.example')).toHaveLength(1);
    expect(failed).toEqual([]);
    await context.close();
  });

  /** Takes the key form's own check away and fills a blank name, so the API's answer shows. */
  const blankKeyName = "(() => { const i = document.getElementById('name'); i.removeAttribute('required'); i.value = '   '; })()";

  it("shows another company's owner only its own keys and members, in German", async () => {
    const context = await browser.newContext({ locale: 'de-DE' });
    const page = await context.newPage();
    // the owner's invitation e-mail names the role in German too
    expect((await waitFor(() => mails.find((m) => m.to === 'owner@beta.example'))).text).toContain(
      'Sie wurden als Inhaber zu Beta GmbH eingeladen.',
    );
    await acceptAndSignIn(page, 'owner@beta.example', 'de', ['Beta GmbH', 'als Inhaber'], 'accept-invitation-de');
    const keysHtml = await page.content();
    expect(keysHtml).toContain('API-Schlüssel');
    expect(keysHtml).not.toContain('ERP production');
    await page.getByRole('link', { name: 'Mitglieder' }).click();
    const membersHtml = await page.content();
    expect(membersHtml).toContain('owner@beta.example');
    expect(membersHtml).not.toContain('alpha.example');
    expect(await page.locator('td[data-label="Rolle"]', { hasText: 'Inhaber' }).count()).toBe(1);
    expect(membersHtml).not.toMatch(/>owner</);
    await page.screenshot({ path: resolve(ARTIFACTS, 'webapp-6-other-company-de.png'), fullPage: true });

    // a refusal in German, not the service's English detail: the address is a member already
    await page.getByLabel('E-Mail-Adresse').fill('owner@beta.example');
    await page.getByRole('button', { name: 'Einladen' }).click();
    const exists = await page.getByRole('status').textContent();
    expect(exists).toContain('Diese Adresse ist bereits Mitglied oder eingeladen.');
    expect(exists).not.toContain('already a member');
    // a field error names the form's field in German with what it expects (the form's own checks bypassed)
    await page.goto(`${app()}/keys`);
    await page.evaluate(blankKeyName);
    await page.getByRole('button', { name: 'Schlüssel erstellen' }).click();
    expect(await page.getByRole('status').textContent()).toContain(
      'Bitte prüfen Sie das Feld „Name“. Erwartet: 1 bis 100 Zeichen, die sagen, wofür der Schlüssel ist.',
    );
    await shots(page, 'field-error-de');
    // the same in English
    await page.goto(`${app()}/keys?lang=en`);
    await page.evaluate(blankKeyName);
    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await page.getByRole('status').textContent()).toContain(
      'Please check the field “Name”. Expected: 1 to 100 characters saying what the key is for.',
    );
    await context.close();
  });

  it("refuses a viewer's forged key forms as the API would: no key is created, none revoked", async () => {
    const owner = await (await browser.newContext()).newPage();
    await owner.goto(`${app()}/?lang=en`);
    await owner.getByLabel('E-mail address').fill('owner@alpha.example');
    await owner.getByLabel('Password').fill('a long enough password');
    await owner.getByRole('button', { name: 'Sign in' }).click();
    await owner.waitForURL(/\/app\/invoices$/);
    await owner.goto(`${app()}/keys`);
    await owner.getByLabel('Name (what the key is for)').fill('owner tool');
    await owner.getByRole('button', { name: 'Create key' }).click();
    await owner.goto(`${app()}/members`);
    await owner.getByLabel('E-mail address').fill('viewer@alpha.example');
    await owner.getByLabel('Role', { exact: true }).selectOption('viewer');
    await owner.getByRole('button', { name: 'Invite' }).click();
    const ownerKeyId = /\/app\/keys\/([0-9a-f]{24})\/revoke/.exec(await (await owner.goto(`${app()}/keys`))!.text())![1];

    const viewerContext = await browser.newContext();
    const viewer = await viewerContext.newPage();
    await acceptAndSignIn(viewer, 'viewer@alpha.example');
    const csrf = (await viewer.locator('input[name=csrf]').first().getAttribute('value'))!;
    // what the page would post if it offered the forms: the session cookie and a valid CSRF token
    const forged = await viewer.evaluate(
      async ({ csrf, ownerKeyId }) => {
        const form = (fields: Record<string, string>) => ({
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields).toString(),
          redirect: 'manual' as const,
        });
        const created = await fetch('/app/keys', form({ csrf, name: 'sneaky', role: 'admin' }));
        const revoked = await fetch(`/app/keys/${ownerKeyId}/revoke`, form({ csrf }));
        return [created.status, revoked.status, await created.text()];
      },
      { csrf, ownerKeyId },
    );
    expect(forged.slice(0, 2)).toEqual([403, 403]);
    expect(forged[2]).not.toMatch(/ak_live_[0-9a-f]{32}/);
    const keysPage = await (await owner.goto(`${app()}/keys`))!.text();
    expect(keysPage).not.toContain('sneaky');
    expect(keysPage).toContain(`/app/keys/${ownerKeyId}/revoke`); // still active
    await viewerContext.close();
    await owner.context().close();
  });

  it('signs in with the password and shows the Pro requirement as a message on the Free plan', async () => {
    await peer.callRpc('quota.set-plan.v1', companyA, { plan: 'free' });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app()}/?lang=en`);
    await page.getByLabel('E-mail address').fill('owner@alpha.example');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/app\/invoices$/);
    await page.goto(`${app()}/keys`);
    await waitFor(
      async () => {
        await page.goto(`${app()}/keys`);
        return (await page.content()).includes('deactivated (plan downgrade)');
      },
      { what: 'keys deactivated by the downgrade' },
    );
    await page.getByLabel('Name (what the key is for)').fill('on free');
    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await page.getByRole('status').textContent()).toContain('API keys need the Pro plan');
    await page.screenshot({ path: resolve(ARTIFACTS, 'webapp-7-plan-required.png'), fullPage: true });
    await context.close();
  });

  it('refuses forms without the CSRF token and a wrong password, and limits sign-in attempts', async () => {
    const noToken = await fetch(`${app()}/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=owner%40alpha.example&password=a+long+enough+password',
      redirect: 'manual',
    });
    expect(noToken.status).toBe(403);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app()}/`);
    await shots(page, 'sign-in');
    let status = 0;
    for (let i = 0; i < 12 && status !== 429; i++) {
      await page.getByLabel('E-mail address').fill('owner@alpha.example');
      await page.getByLabel('Password').fill(`wrong password ${i}`);
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/app/sign-in')),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      status = res.status();
      if (status !== 429) expect(await page.getByRole('status').textContent()).toContain('Wrong e-mail address or password.');
      // the address stays filled in, the password does not
      expect(await page.getByLabel('E-mail address').inputValue()).toBe('owner@alpha.example');
      expect(await page.getByLabel('Password').inputValue()).toBe('');
      if (i === 0) await shots(page, 'sign-in-failed');
    }
    expect(status).toBe(429);
    await context.close();
  });
});
