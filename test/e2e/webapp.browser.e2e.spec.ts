import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { peerBus, waitFor } from '@inv/testing';
import { apiClient, startSystem, type System } from '../support/system';

jest.setTimeout(240_000);

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = resolve(__dirname, '../../test-artifacts');
const haveChromium = existsSync(CHROMIUM);
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
    mkdirSync(ARTIFACTS, { recursive: true });
    system = await startSystem({
      kind: 'webapp',
      services: ['account', 'quota', 'gateway'],
      env: { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn' },
      stdio: process.env.TEST_LOG_LEVEL ? 'inherit' : 'ignore',
    });
    peer = peerBus(system.prefix);
    // plays the mail module: the invitation e-mails arrive here
    peer.onCommand('mail.send.v1', async (msg) => void mails.push({ to: msg.data.to[0]!, text: msg.data.text }));
    await peer.start();
    await peer.callRpc('account.create-company.v1', companyA, { name: 'Alpha GmbH', ownerEmail: 'owner@alpha.example', plan: 'pro' });
    await peer.callRpc('account.create-company.v1', companyB, { name: 'Beta GmbH', ownerEmail: 'owner@beta.example', plan: 'pro' });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    });
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
  const acceptAndSignIn = async (page: Page, email: string, lang: 'en' | 'de' = 'en') => {
    await page.goto(`${app()}/accept-invitation?lang=${lang}#token=${await tokenFor(email)}`);
    await page.getByLabel(lang === 'de' ? 'Neues Passwort' : 'New password').fill('a long enough password');
    await page.getByRole('button', { name: lang === 'de' ? 'Passwort festlegen und anmelden' : 'Set password and sign in' }).click();
    await page.waitForURL(/\/app\/keys$/);
  };

  it('signs in, creates a key, uses it, revokes it in the page, and the same request answers 401', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(r.url()));
    page.on('console', (m) => void (m.type() === 'error' && failed.push(`console: ${m.text()}`)));
    await acceptAndSignIn(page, 'owner@alpha.example');
    await page.screenshot({ path: resolve(ARTIFACTS, 'webapp-1-keys.png'), fullPage: true });

    // the key the operator created is listed; a new one is created by name
    await page.getByLabel('Name (what the key is for)').fill('ERP production');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.locator('#secret').textContent())!;
    expect(secret).toMatch(/^ak_live_[0-9a-f]{32}$/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.screenshot({ path: resolve(ARTIFACTS, 'webapp-2-created.png'), fullPage: true });
    expect(await api('GET', '/company/', undefined, secret)).toMatchObject({ status: 200, body: { name: 'Alpha GmbH' } });

    // revoke with confirmation, by keyboard
    await page.goto(`${app()}/keys`);
    expect(await page.locator('#secret').count()).toBe(0); // shown once
    await page.getByRole('link', { name: 'Revoke: ERP production' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/revoke$/);
    await page.screenshot({ path: resolve(ARTIFACTS, 'webapp-3-confirm.png'), fullPage: true });
    await page.getByRole('button', { name: 'Revoke' }).click();
    await page.waitForURL(/done=revoked/);
    await expect(page.getByRole('status').textContent()).resolves.toContain('The key was revoked.');
    await page.screenshot({ path: resolve(ARTIFACTS, 'webapp-4-revoked.png'), fullPage: true });
    expect((await api('GET', '/company/', undefined, secret)).status).toBe(401);

    // members: invite one; the page lists them
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByLabel('E-mail address').fill('anna@alpha.example');
    await page.getByRole('button', { name: 'Invite' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('Invitation sent to anna@alpha.example');
    expect(await page.locator('td', { hasText: 'anna@alpha.example' }).count()).toBe(1);
    await page.screenshot({ path: resolve(ARTIFACTS, 'webapp-5-members.png'), fullPage: true });
    expect(failed).toEqual([]);
    await context.close();
  });

  it("shows another company's owner only its own keys and members, in German", async () => {
    const context = await browser.newContext({ locale: 'de-DE' });
    const page = await context.newPage();
    await acceptAndSignIn(page, 'owner@beta.example', 'de');
    const keysHtml = await page.content();
    expect(keysHtml).toContain('API-Schlüssel');
    expect(keysHtml).not.toContain('ERP production');
    await page.getByRole('link', { name: 'Mitglieder' }).click();
    const membersHtml = await page.content();
    expect(membersHtml).toContain('owner@beta.example');
    expect(membersHtml).not.toContain('alpha.example');
    await page.screenshot({ path: resolve(ARTIFACTS, 'webapp-6-other-company-de.png'), fullPage: true });
    await context.close();
  });

  it("refuses a viewer's forged key forms as the API would: no key is created, none revoked", async () => {
    const owner = await (await browser.newContext()).newPage();
    await owner.goto(`${app()}/?lang=en`);
    await owner.getByLabel('E-mail address').fill('owner@alpha.example');
    await owner.getByLabel('Password').fill('a long enough password');
    await owner.getByRole('button', { name: 'Sign in' }).click();
    await owner.waitForURL(/\/app\/keys$/);
    await owner.getByLabel('Name (what the key is for)').fill('owner tool');
    await owner.getByRole('button', { name: 'Create key' }).click();
    await owner.goto(`${app()}/members`);
    await owner.getByLabel('E-mail address').fill('viewer@alpha.example');
    await owner.getByLabel('Role').selectOption('viewer');
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
    await page.waitForURL(/\/app\/keys$/);
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
    }
    expect(status).toBe(429);
    await context.close();
  });
});
