import { composeIBAN } from 'ibantools';
import sharp from 'sharp';
import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { deleteBrokerObjects, deleteRedisKeys, identityHeaders, peerBus, testEnv, testStores, uniquePrefix, waitFor } from '@inv/testing';
import { accountConfig } from './config';
import { createAccountService } from './account-service';
import { SCRUBBED_TEXT } from './db/legacy-invitation-mails';

jest.setTimeout(120_000);

type Json = any;

/**
 * Findings 6 and 8 of the red-team report on account-service: no usable invitation link (nor an API key) in any
 * document of its database, the outbox included; company texts without line breaks or bidi overrides; the limits
 * of bank accounts, payment terms and keys under concurrency; logos bounded in pixels and in parallel work.
 */
describe('account-service: secrets at rest, text safety, limits under concurrency, logo processing', () => {
  const prefix = uniquePrefix('sec');
  const slug = prefix.replace(/-/g, '_');
  let stores: Awaited<ReturnType<typeof testStores>>;
  let service: Awaited<ReturnType<typeof createAccountService>>;
  let peer: Bus<Messages>;
  let url: string;
  const mails: Json[] = [];

  const env = (extra: Record<string, string> = {}) =>
    accountConfig.parse(testEnv(prefix, stores.mongoUrl, { ...stores.s3Env, LOGO_QUEUE_MAX: '2', ...extra }));
  const call = async (method: string, path: string, company: string, body?: unknown, role = 'owner') => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(await identityHeaders(company, { role })) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json, headers: res.headers };
  };
  const createCompany = (company: string, name = 'Sicher GmbH', plan: 'pro' | 'free' = 'pro') =>
    peer.callRpc('account.create-company.v1', company, {
      name,
      ownerEmail: `owner@${company.replace(/[^a-z0-9]/g, '').slice(-40)}.example`,
      plan,
    });
  /** Every document of every collection of account-service's database, as JSON text. */
  const wholeDatabase = async () => {
    const db = service.runtime.conn.db!;
    const parts: string[] = [];
    for (const { name } of await db.listCollections().toArray()) {
      parts.push(`${name}: ${JSON.stringify(await db.collection(name).find({}).toArray())}`);
    }
    return parts.join('\n');
  };

  beforeAll(async () => {
    stores = await testStores();
    peer = peerBus(prefix);
    peer.onCommand('mail.send.v1', async (msg) => void mails.push(msg));
    peer.serveRpc('document.template-exists.v1', async () => ({ exists: false }));
    peer.serveRpc('customer.payment-term-usage.v1', async () => ({ customers: 0 }));
    await peer.start();
    service = await createAccountService(env());
    url = (await service.start()).url;
  });
  afterAll(async () => {
    await service?.stop();
    await peer?.stop();
    await deleteBrokerObjects(prefix);
    await deleteRedisKeys(`${prefix}:`);
    await stores?.stop();
  });

  describe('secrets at rest', () => {
    it('keeps no invitation token or link and no API key in any collection, the outbox included; the links work', async () => {
      const company = `cmp_inv_${slug}`;
      const created = await createCompany(company);
      const invited = await call('POST', '/members/', company, { email: 'anna@sicher.example', role: 'admin' });
      expect(invited.status).toBe(201);
      const key = await call('POST', '/company/api-keys', company, { name: 'erp' });
      expect(key.status).toBe(201);
      const ownerMail = await waitFor(() => mails.find((m) => m.companyId === company && m.data.to[0].startsWith('owner@')), {
        what: 'owner invitation',
      });
      const memberMail = await waitFor(() => mails.find((m) => m.data.to[0] === 'anna@sicher.example'), { what: 'member invitation' });
      const linkOf = (m: Json) => /(\S+accept-invitation#token=([\w-]{43}))/.exec(m.data.text)!;
      const [ownerLink, ownerToken] = linkOf(ownerMail).slice(1);
      const [memberLink, memberToken] = linkOf(memberMail).slice(1);
      expect(memberMail.data).toMatchObject({ emailId: `invitation-${invited.body.id}`, subjectRef: `member:${invited.body.id}` });
      // the relay has published whatever the outbox held: nothing more will be written for these requests
      await waitFor(
        async () =>
          (await service.runtime.conn.collection('outbox').countDocuments({ publishedAt: { $exists: false } })) === 0 ? true : undefined,
        {
          what: 'outbox published',
        },
      );
      const everything = await wholeDatabase();
      expect(everything).toContain('members: '); // the scan saw the collections
      expect(everything).toContain('outbox: ');
      for (const secret of [ownerToken!, memberToken!, ownerLink!, memberLink!, 'accept-invitation#token=', created.apiKey!, key.body.key])
        expect(everything).not.toContain(secret);
      expect(await service.runtime.conn.collection('outbox').countDocuments({ type: 'mail.send.v1' })).toBe(0);

      // a redelivered invitation event renders the same link under the same e-mail id (the mail module sends it once)
      const before = mails.filter((m) => m.data.emailId === `invitation-${invited.body.id}`).length;
      await peer.publishEvent('member.invited.v1', company, { memberId: invited.body.id, role: 'admin' });
      await waitFor(() => mails.filter((m) => m.data.emailId === `invitation-${invited.body.id}`).length > before || undefined, {
        what: 'second rendering',
      });
      const again = mails.filter((m) => m.data.emailId === `invitation-${invited.body.id}`).at(-1);
      expect(again.data.text).toBe(memberMail.data.text);

      // the links work once
      const accept = async (token: string) =>
        (
          await fetch(`${url}/auth/invitations/accept`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...(await identityHeaders({ internal: true })) },
            body: JSON.stringify({ token, password: 'correct horse battery' }),
          })
        ).status;
      expect(await accept(memberToken!)).toBe(201);
      expect(await accept(ownerToken!)).toBe(201);
      expect(await accept(memberToken!)).toBe(404);
      const accepted = await service.runtime.conn.collection('members').find({ companyId: company }).toArray();
      expect(accepted.map((m) => [m.status, m.invitationHash, m.invitationNonce])).toEqual([
        ['active', undefined, undefined],
        ['active', undefined, undefined],
      ]);
      // an accepted invitation renders nothing any more
      const count = mails.length;
      await peer.publishEvent('member.invited.v1', company, { memberId: invited.body.id, role: 'admin' });
      await new Promise((r) => setTimeout(r, 300));
      expect(mails.length).toBe(count);
    });

    it('removes the links of invitation e-mails written to the outbox before, once published, when it starts', async () => {
      const outbox = service.runtime.conn.collection('outbox');
      const legacy = (id: string, published: boolean) => ({
        _id: id as never,
        kind: 'command',
        type: 'mail.send.v1',
        companyId: `cmp_legacy_${slug}`,
        data: {
          emailId: 'invitation-x',
          subjectRef: 'member:x',
          text: 'Link:\nhttp://app/accept-invitation#token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        },
        createdAt: new Date(),
        attempts: 1,
        ...(published ? { publishedAt: new Date() } : {}),
      });
      await outbox.insertOne(legacy(`legacy-published-${slug}`, true));
      const restarted = await createAccountService(env());
      await restarted.start();
      await restarted.stop();
      expect((await outbox.findOne({ _id: `legacy-published-${slug}` as never }))?.data.text).toBe(SCRUBBED_TEXT);
    });
  });

  describe('text that reaches e-mails and documents', () => {
    it('refuses line breaks, controls and bidi overrides in company texts with 400 naming the field', async () => {
      const company = `cmp_text_${slug}`;
      await createCompany(company, 'Text GmbH');
      const bad = await call('PUT', '/company/', company, {
        trading_name: 'Evil GmbH\r\nBcc: victim@example.com',
        legal_name: 'Evil\u202Egpj.exe GmbH',
        contact_name: 'Eve\u0000',
        address: { line1: 'Straße 1\u2066', postal_code: '10115', city: 'Berlin', country_code: 'DE' },
      });
      expect(bad.status).toBe(400);
      expect(bad.headers.get('content-type')).toContain('application/problem+json');
      expect(bad.body.errors.map((e: Json) => e.path).sort()).toEqual(['address.line1', 'contact_name', 'legal_name', 'trading_name']);
      expect(bad.body.errors.find((e: Json) => e.path === 'trading_name').message).toContain('U+000D');
      const ok = await call('PUT', '/company/', company, { trading_name: 'Müller & Söhne GmbH', legal_name: 'شركة\u200f الأمل' });
      expect(ok.status).toBe(200);
      const bank = await call('POST', '/company/bank-accounts', company, { iban: 'DE89370400440532013000', bank_name: 'Bank\nX' });
      expect([bank.status, bank.body.errors?.[0]?.path]).toEqual([400, 'bank_name']);
      const term = await call('POST', '/company/payment-terms', company, { name: 'Netto', days: 30, text_de: 'Zahlbar\r\nbis {due_date}' });
      expect([term.status, term.body.text_de ?? term.body.term?.text_de]).toEqual([201, 'Zahlbar\nbis {due_date}']);
      const keyName = await call('POST', '/company/api-keys', company, { name: 'erp\u202E' });
      expect([keyName.status, keyName.body.errors?.[0]?.path]).toEqual([400, 'name']);
    });

    it('refuses such a name at company creation (operator RPC), and keeps a stored one out of the invitation e-mail lines', async () => {
      await expect(createCompany(`cmp_crlf_${slug}`, 'Evil GmbH\r\nClick http://evil.example')).rejects.toThrow(/name.*U\+000D/);
      // a company whose name was stored before the check: its invitation e-mail gets no extra lines
      const company = `cmp_old_${slug}`;
      await createCompany(company, 'Old GmbH');
      await service.runtime.conn
        .collection('companies')
        .updateOne({ _id: company as never }, { $set: { name: 'Old GmbH\r\nPlease also visit http://evil.example' } });
      await call('POST', '/members/', company, { email: 'new@old.example', role: 'member' });
      const mail = await waitFor(() => mails.find((m) => m.data.to[0] === 'new@old.example'), { what: 'invitation' });
      expect(mail.data.subject).not.toMatch(/[\r\n]/);
      expect(mail.data.text.split('\n')).toHaveLength(5); // German line, link, blank, English line, link
      expect(mail.data.text).toContain('Old GmbHPlease also visit');
    });
  });

  describe('limits under concurrency', () => {
    const iban = (i: number) => composeIBAN({ countryCode: 'DE', bban: `37040044${String(532013000 + i).padStart(10, '0')}` })!;

    it('keeps at most 10 bank accounts under 15 parallel additions: exactly 10 stored, 5 answered 409', async () => {
      const company = `cmp_bank_${slug}`;
      await createCompany(company, 'Bank GmbH');
      const answers = await Promise.all(
        Array.from({ length: 15 }, (_, i) => call('POST', '/company/bank-accounts', company, { iban: iban(i) })),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
      expect(answers.filter((a) => a.status !== 201).map((a) => [a.status, a.body.code])).toEqual(
        Array.from({ length: 5 }, () => [409, 'BANK_ACCOUNT_LIMIT_REACHED']),
      );
      const listed = (await call('GET', '/company/bank-accounts', company)).body;
      const accounts = Array.isArray(listed) ? listed : listed.bank_accounts;
      expect(accounts).toHaveLength(10);
      expect(new Set(accounts.map((a: Json) => a.id)).size).toBe(10);
      expect(accounts.filter((a: Json) => a.is_default)).toHaveLength(1);
    });

    it('keeps at most 50 payment terms under 10 parallel creations at 45: exactly 5 more, 5 answered 409', async () => {
      const company = `cmp_terms_${slug}`;
      await createCompany(company, 'Terms GmbH');
      const listTerms = async () => {
        const b = (await call('GET', '/company/payment-terms', company)).body;
        return (Array.isArray(b) ? b : b.payment_terms) as Json[];
      };
      for (let i = (await listTerms()).length; i < 45; i++)
        expect((await call('POST', '/company/payment-terms', company, { name: `T${i}`, days: 30 })).status).toBe(201);
      expect(await listTerms()).toHaveLength(45);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => call('POST', '/company/payment-terms', company, { name: `Race ${i}`, days: 14 })),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
      expect(answers.filter((a) => a.status !== 201).map((a) => [a.status, a.body.code])).toEqual(
        Array.from({ length: 5 }, () => [409, 'PAYMENT_TERM_LIMIT_REACHED']),
      );
      const terms = await listTerms();
      expect(terms).toHaveLength(50);
      expect(new Set(terms.map((t) => t.id)).size).toBe(50);
    });

    it('never has more than 10 active API keys while keys are revoked and created at once', async () => {
      const company = `cmp_keys_${slug}`;
      await createCompany(company, 'Keys GmbH'); // the owner key: 1 active
      const first = await Promise.all(Array.from({ length: 12 }, (_, i) => call('POST', '/company/api-keys', company, { name: `k${i}` })));
      expect(first.filter((a) => a.status === 201)).toHaveLength(9);
      const made = first.filter((a) => a.status === 201).map((a) => a.body.id as string);
      const mixed = await Promise.all([
        ...made.slice(0, 4).map((id) => call('DELETE', `/company/api-keys/${id}`, company)),
        ...Array.from({ length: 12 }, (_, i) => call('POST', '/company/api-keys', company, { name: `m${i}` })),
      ]);
      expect(mixed.slice(0, 4).map((a) => a.status)).toEqual([200, 200, 200, 200]);
      const createdNow = mixed.slice(4).filter((a) => a.status === 201).length;
      expect(
        mixed
          .slice(4)
          .filter((a) => a.status !== 201)
          .every((a) => a.body.code === 'API_KEY_LIMIT_REACHED'),
      ).toBe(true);
      const active = await service.runtime.conn
        .collection('api_keys')
        .find({ companyId: company, revokedAt: { $exists: false } })
        .toArray();
      expect(active.length).toBeLessThanOrEqual(10);
      expect(active.length).toBe(10 - 4 + createdNow);
      expect(new Set(active.map((k) => k.slot)).size).toBe(active.length); // one slot each
      expect(createdNow).toBeLessThanOrEqual(4);
    });
  });

  describe('logo processing', () => {
    const png = (width: number, height: number) =>
      sharp({ create: { width, height, channels: 3, background: { r: 20, g: 60, b: 160 } } })
        .png({ compressionLevel: 9 })
        .toBuffer();
    const put = async (company: string, body: Buffer) => {
      const res = await fetch(`${url}/company/logo`, {
        method: 'PUT',
        headers: { 'content-type': 'image/png', ...(await identityHeaders(company)) },
        body,
      });
      return { status: res.status, body: (await res.json()) as Json, retryAfter: res.headers.get('retry-after') };
    };

    it('refuses a 49-megapixel logo from its header (422 naming its size) and takes one of exactly 25 megapixels', async () => {
      const company = `cmp_logo_${slug}`;
      await createCompany(company, 'Logo GmbH');
      const huge = await png(7000, 7000);
      expect(huge.length).toBeLessThan(1024 * 1024);
      const started = performance.now();
      const refused = await put(company, huge);
      const tookMs = performance.now() - started;
      expect([refused.status, refused.body.code]).toEqual([422, 'LOGO_DIMENSIONS_TOO_LARGE']);
      expect(refused.body).toMatchObject({ width: 7000, height: 7000, max_pixels: 25_000_000 });
      expect(refused.body.detail ?? refused.body.message).toContain('7000 x 7000');
      expect(tookMs).toBeLessThan(500); // nothing decoded
      const limit = await put(company, await png(5000, 5000));
      expect([limit.status, limit.body.width, limit.body.height]).toEqual([200, 260, 260]);
    });

    it('processes logos one at a time with 2 waiting: a burst of 8 gets 503 LOGO_BUSY with Retry-After for the rest', async () => {
      const companies = Array.from({ length: 8 }, (_, i) => `cmp_burst${i}_${slug}`);
      for (const c of companies) await createCompany(c, 'Burst GmbH', 'free');
      const image = await png(4000, 4000);
      const answers = await Promise.all(companies.map((c) => put(c, image)));
      const busy = answers.filter((a) => a.status === 503);
      expect(answers.every((a) => a.status === 200 || a.status === 503)).toBe(true);
      expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(3);
      expect(busy.length).toBeGreaterThanOrEqual(1);
      for (const b of busy) expect([b.body.code, b.retryAfter, b.body.retry_after]).toEqual(['LOGO_BUSY', '2', 2]);
      // the queue drained: the next one is taken
      expect((await put(companies[0]!, await png(300, 100))).status).toBe(200);
    });

    it("keeps another tenant's GET /company/ fast while 24 large logos arrive at once", async () => {
      const company = `cmp_quiet_${slug}`;
      await createCompany(company, 'Quiet GmbH');
      const attackers = Array.from({ length: 24 }, (_, i) => `cmp_att${i}_${slug}`);
      for (const c of attackers) await createCompany(c, 'Attacker GmbH', 'free');
      const [huge, large] = [await png(7000, 7000), await png(4900, 5000)];
      const measure = async (burst: () => Promise<unknown>) => {
        const latencies: number[] = [];
        let done = false;
        const reader = (async () => {
          while (!done || latencies.length < 30) {
            const t = performance.now();
            expect((await call('GET', '/company/', company)).status).toBe(200);
            latencies.push(performance.now() - t);
          }
        })();
        await burst();
        done = true;
        await reader;
        latencies.sort((a, b) => a - b);
        return {
          n: latencies.length,
          p50: latencies[Math.floor(latencies.length * 0.5)]!,
          p99: latencies[Math.floor(latencies.length * 0.99)]!,
        };
      };
      const bombs = await measure(() => Promise.all(attackers.map((c) => put(c, huge))));
      const allowed = await measure(() => Promise.all(attackers.map((c) => put(c, large))));
      console.log(
        `GET /company/ while 24 logos arrive: 49 MP (refused) p50 ${bombs.p50.toFixed(0)} ms p99 ${bombs.p99.toFixed(0)} ms (${bombs.n} requests); ` +
          `24.5 MP (queued, 1 at a time) p50 ${allowed.p50.toFixed(0)} ms p99 ${allowed.p99.toFixed(0)} ms (${allowed.n} requests)`,
      );
      // the red-team run measured p99 697 ms (51 ms idle) with 24 parallel 49-megapixel logos. A test shares two cores
      // with the rest of the suite (CI measured 763 ms once while other projects' tests ran), so only the order of
      // magnitude is asserted: an unbounded decode of 24 bombs took seconds.
      expect(bombs.p99).toBeLessThan(2000);
      expect(allowed.p99).toBeLessThan(2000);
    });
  });
});
