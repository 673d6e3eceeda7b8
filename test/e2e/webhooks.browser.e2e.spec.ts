import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { peerBus, waitFor } from '@inv/testing';
import { ARTIFACTS, CHROMIUM, haveChromium, launchChromium } from '../support/browser';
import { startSystem, type System } from '../support/system';

jest.setTimeout(240_000);

if (!haveChromium) console.warn(`\n!!! ${CHROMIUM} not found: the webhook pages browser test is SKIPPED (apt-get install chromium) !!!\n`);

/**
 * The web app's webhook pages in a real browser against account-, quota-, webhook-service and the gateway as
 * separate processes: an owner adds an endpoint pointing at a local receiver, copies the secret shown once,
 * sends a test event that the receiver verifies with the independent `standardwebhooks` library, sees a
 * failed answer in the delivery log, retries it from the page once the receiver is back, and deletes the
 * endpoint. A member (no `webhooks:manage`) gets neither the link nor the page.
 */
(haveChromium ? describe : describe.skip)('e2e: web app webhook pages in headless Chromium', () => {
  let system: System;
  let browser: Browser;
  let peer: Bus<Messages>;
  let receiver: Server;
  let receiverUrl = '';
  let answer = 204;
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const mails: { to: string; text: string }[] = [];
  const app = () => system.base.replace(/\/api\/v1$/, '/app');
  const company = `cmp_webhooks_${Date.now().toString(16)}`;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer >= 300 ? 'receiver is down for maintenance' : '');
      });
    });
    await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/invoicing`;
    system = await startSystem({
      kind: 'webhookapp',
      services: ['account', 'quota', 'webhook', 'gateway', 'web'],
      env: { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn', WEBHOOKS_ALLOW_LOOPBACK: 'true' },
      stdio: process.env.TEST_LOG_LEVEL ? 'inherit' : 'ignore',
    });
    peer = peerBus(system.prefix);
    peer.onCommand('mail.send.v1', async (msg) => void mails.push({ to: msg.data.to[0]!, text: msg.data.text }));
    await peer.start();
    await peer.callRpc('account.create-company.v1', company, { name: 'Hook GmbH', ownerEmail: 'owner@hook.example', plan: 'pro' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await peer?.stop();
    await system?.stop();
    await new Promise((ok) => receiver?.close(ok));
  });

  const signIn = async (page: Page, email: string) => {
    const mail = await waitFor(() => mails.find((m) => m.to === email), { what: `invitation to ${email}` });
    const token = /accept-invitation#token=([\w-]{43})/.exec(mail.text)![1];
    await page.goto(`${app()}/accept-invitation?lang=en#token=${token}`);
    await page.locator('#invitation').waitFor({ state: 'visible' });
    await page.getByLabel('New password').fill('a long enough password');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForURL(/\/app\/invoices$/);
    await page.goto(`${app()}/keys`);
  };
  const shots = async (page: Page, name: string) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      if (width === 390) expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await page.screenshot({ path: resolve(ARTIFACTS, `webapp-webhooks-${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  };

  it('adds an endpoint, shows its secret once, delivers a signed test event, retries a failed delivery and deletes it', async () => {
    const page = await (await browser.newContext()).newPage();
    const consoleErrors: string[] = [];
    // the page after sign-in is the invoice list, whose service this system does not run (its 502 is expected)
    page.on('console', (m) => void (m.type() === 'error' && !page.url().endsWith('/app/invoices') && consoleErrors.push(m.text())));
    await signIn(page, 'owner@hook.example');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL(/\/app\/webhooks$/);
    expect(await page.getByText('No webhook endpoints yet.').count()).toBe(1);

    // a URL the service refuses comes back with the reason and the form filled in as sent
    await page.getByLabel('URL').fill('http://169.254.169.254/latest/meta-data');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await page.locator('.msg.error').count()).toBe(1);
    expect(await page.getByRole('status').textContent()).toContain('This URL may not receive webhooks: use an https:// address');
    expect(await page.getByLabel('URL').inputValue()).toBe('http://169.254.169.254/latest/meta-data');
    // the same refusal on a German page
    await page.goto(`${app()}/webhooks?lang=de`);
    await page.getByLabel('URL').fill('http://169.254.169.254/latest/meta-data');
    await page.getByRole('button', { name: 'Endpunkt hinzufügen' }).click();
    expect(await page.getByRole('status').textContent()).toContain('An diese URL dürfen keine Webhooks gehen');
    await page.goto(`${app()}/webhooks?lang=en`);

    await page.getByLabel('URL').fill(receiverUrl);
    await page.getByLabel('Description (optional)').fill('ERP inbox');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.waitForURL(/\/app\/webhooks$/);
    const secret = (await page.locator('#secret').textContent())!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32,}$/);
    expect(page.url()).not.toContain(secret);
    await shots(page, 'new-secret');
    await page.reload();
    expect(await page.locator('#secret').count()).toBe(0); // shown once
    expect(await page.content()).not.toContain(secret);

    // the endpoint's page: a test event arrives signed, and the independent library accepts the signature
    await page.getByRole('link', { name: receiverUrl }).click();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.waitForURL(/\/app\/webhooks\/[\w-]+$/);
    const ping = await waitFor(() => received.find((r) => r.body.includes('"ping"')), { what: 'the ping delivery' });
    const verified = new Webhook(secret).verify(ping.body, {
      'webhook-id': String(ping.headers['webhook-id']),
      'webhook-timestamp': String(ping.headers['webhook-timestamp']),
      'webhook-signature': String(ping.headers['webhook-signature']),
    }) as { type: string; id: string };
    expect(verified).toMatchObject({ type: 'ping', id: ping.headers['webhook-id'] });
    await waitFor(
      async () => {
        await page.reload();
        return (await page.locator('tbody tr').first().textContent())?.includes('delivered');
      },
      { what: 'the delivered ping in the log' },
    );

    // the receiver fails: the log shows the answer; once it is back, the retry button delivers the same event id
    answer = 503;
    const before = received.length;
    await page.getByRole('button', { name: 'Send test event' }).click();
    await waitFor(() => received.length > before, { what: 'the failing attempt' });
    await waitFor(
      async () => {
        await page.reload();
        return (await page.locator('tbody tr').first().textContent())?.includes('503');
      },
      { what: 'the 503 in the log' },
    );
    await shots(page, 'delivery-log');
    const failedId = String(received.at(-1)!.headers['webhook-id']);
    answer = 204;
    // the failed attempt waits 5 s for its next one; Retry sends it at once (unless the schedule was quicker)
    await page.getByRole('button', { name: 'Retry' }).first().click();
    await page.waitForURL(/\/app\/webhooks\/[\w-]+$/);
    expect(await page.getByRole('status').textContent()).toMatch(/The delivery is queued again\.|in flight/);
    await waitFor(() => received.filter((r) => r.headers['webhook-id'] === failedId).length >= 2, { what: 'the retried delivery' });

    // delete asks first, then the endpoint is gone
    await page.getByRole('link', { name: 'Delete endpoint' }).click();
    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    await page.waitForURL(/\/app\/webhooks$/);
    expect(await page.getByRole('status').textContent()).toContain('The endpoint was deleted.');
    expect(await page.getByText('No webhook endpoints yet.').count()).toBe(1);
    // the refused URL's page answers 400 on purpose (the browser logs that status); nothing else failed
    expect(consoleErrors.filter((e) => !e.includes('status of 400'))).toEqual([]);
  });
});
