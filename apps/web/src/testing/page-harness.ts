import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { Router } from 'express';
import { createLogger } from '@inv/service-kit';
import { gatewayApi } from '../kit/api-client';
import { APP_CSS, APP_JS } from '../kit/html';
import { texts, type Lang } from '../kit/i18n';
import { pageHelpers, type Ctx, type PagesKit } from '../kit/pages-kit';
import type { Flash, Session, SessionStore } from '../kit/sessions';

/** A call the page made to the (fake) public API. */
export interface ApiCallSeen {
  method: string;
  /** Below /api/v1, with the query string. */
  path: string;
  body: unknown;
  authorization?: string;
  idempotencyKey?: string;
}
/** The fake API's answer: JSON `body`, or raw bytes with a content type (a PDF). */
export type FakeAnswer = { status: number; body?: unknown; raw?: Buffer; contentType?: string; headers?: Record<string, string> };
export type FakeApi = (call: ApiCallSeen) => FakeAnswer | undefined | Promise<FakeAnswer | undefined>;

export const TEST_CSRF = 'csrf-of-the-test-session';

/**
 * One section's pages on a real express router, signed in as a member with `role`, against a fake gateway that
 * answers with `api` (404 for what it does not answer). Pages go through the real API client, the real frame and
 * the real helpers: only the session and the platform are stand-ins. For page tests (`*.pages.spec.ts`).
 */
export async function pageHarness(opts: {
  register: (router: Router, kit: PagesKit) => void;
  api: FakeApi;
  role?: string;
  lang?: Lang;
  mode?: 'live' | 'test';
}) {
  const calls: ApiCallSeen[] = [];
  const fakeGateway = express();
  fakeGateway.use(express.raw({ type: () => true, limit: '30mb' }));
  fakeGateway.use(async (req, res) => {
    const buf = req.body as Buffer;
    let body: unknown = undefined;
    if (buf?.length) {
      try {
        body = JSON.parse(buf.toString('utf8'));
      } catch {
        body = buf;
      }
    }
    const call: ApiCallSeen = {
      method: req.method,
      path: req.originalUrl.replace(/^\/api\/v1/, ''),
      body,
      authorization: req.header('authorization'),
      idempotencyKey: req.header('idempotency-key'),
    };
    calls.push(call);
    const answer = (await opts.api(call)) ?? { status: 404, body: { code: 'NOT_FOUND', detail: `${call.path} not found` } };
    if (answer.headers) res.set(answer.headers);
    if (answer.raw)
      return void res
        .status(answer.status)
        .type(answer.contentType ?? 'application/octet-stream')
        .send(answer.raw);
    if (answer.body === undefined) return void res.status(answer.status).end();
    res
      .status(answer.status)
      .type(answer.status >= 400 ? 'application/problem+json' : 'application/json')
      .send(JSON.stringify(answer.body));
  });
  const gw = await listenOn(fakeGateway);

  const logger = createLogger('web-test', 'warn');
  const gateway = gatewayApi({ gatewayUrl: gw.url, logger });
  const session: Session = {
    companyId: 'cmp_test',
    companyName: 'Test GmbH',
    memberId: '0123456789abcdef01234567',
    email: 'anna@test.example',
    role: opts.role ?? 'owner',
    plan: 'pro',
    mode: opts.mode ?? 'live',
    csrf: TEST_CSRF,
    access: `mt_${'ab'.repeat(32)}`,
    accessExpiresAt: Date.now() + 300_000,
  };
  let flash: Flash | undefined;
  const lang = opts.lang ?? 'en';
  const send: PagesKit['send'] = (res, status, html) => void res.status(status).type('html').send(html);
  const nav: PagesKit['nav'] = (s, current, sub) => ({
    csrf: s.csrf,
    companyName: s.companyName,
    email: s.email,
    current,
    sub,
    mode: s.mode,
    role: s.role,
  });
  const ctx = (): Ctx => ({ s: { ...session }, t: texts[lang], lang });
  const field = (req: express.Request, name: string) => (typeof req.body?.[name] === 'string' ? (req.body[name] as string) : '');
  const kit: PagesKit = {
    deps: {
      gatewayUrl: gw.url,
      redis: undefined as never,
      limiter: undefined as never,
      addressLimiter: undefined as never,
      logger,
      production: false,
    },
    sessions: undefined as unknown as SessionStore,
    langOf: () => lang,
    send,
    sameOrigin: () => true,
    field,
    api: gateway.call,
    raw: gateway.raw,
    asMember: (_req, _res, s, idempotencyKey) => ({
      token: s.access,
      requestId: 'req_test',
      ...(idempotencyKey ? { idempotencyKey } : {}),
    }),
    signedIn: async (req, res, post) => {
      if (post && field(req, 'csrf') !== TEST_CSRF) {
        send(res, 403, 'csrf');
        return undefined;
      }
      return ctx();
    },
    redirectWith: async (_req, res, to, f) => {
      flash = f;
      res.redirect(303, to);
    },
    takeFlash: async () => {
      const f = flash;
      flash = undefined;
      return f;
    },
    nav,
    ...pageHelpers(send, nav),
  };
  const app = express();
  const router = Router();
  router.use(express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 200 }));
  router.get('/app.css', (_req, res) => void res.type('text/css').send(APP_CSS));
  router.get('/app.js', (_req, res) => void res.type('text/javascript').send(APP_JS));
  opts.register(router, kit);
  app.use('/app', router);
  // a page that throws is a bug: the test sees a 500 and the error is printed
  app.use((err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    console.error('page threw:', err);
    res.status(500).type('text').send(String(err));
  });
  const web = await listenOn(app);

  return {
    /** The dashboard's origin (pages are under `${url}/app/...`). */
    url: web.url,
    calls,
    /** The message the last redirecting form left (and clears it). */
    takeFlash: () => {
      const f = flash;
      flash = undefined;
      return f;
    },
    async get(path: string) {
      const res = await fetch(`${web.url}${path}`, { redirect: 'manual' });
      return { status: res.status, html: await res.text(), location: res.headers.get('location'), headers: res.headers };
    },
    /** A form post (urlencoded), with the session's CSRF token unless `csrf` is given. */
    async post(path: string, form: Record<string, string | string[]>, csrf = TEST_CSRF) {
      const params = new URLSearchParams();
      params.append('csrf', csrf);
      for (const [k, v] of Object.entries(form)) for (const x of Array.isArray(v) ? v : [v]) params.append(k, x);
      const res = await fetch(`${web.url}${path}`, {
        method: 'POST',
        body: params.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        redirect: 'manual',
      });
      return { status: res.status, html: await res.text(), location: res.headers.get('location'), headers: res.headers };
    },
    async close() {
      await Promise.all([web.close(), gw.close()]);
    },
  };
}

async function listenOn(app: express.Express) {
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
