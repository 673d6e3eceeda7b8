import type { Router } from 'express';
import type { PagesKit } from '../../kit/pages-kit';
import { pageHarness, type FakeApi } from '../../testing/page-harness';
import type { SessionStore } from '../../kit/sessions';
import { registerSignInPages } from '../sign-in/sign-in.pages';
import { registerPasswordResetPages } from './password-reset.pages';

const TOKEN = 'T'.repeat(43);

/** The pages with a stand-in for the per-address limiter (`limited` says whether the next request is refused). */
async function harness(api: FakeApi, lang: 'de' | 'en' = 'en') {
  const limiter = { taken: [] as string[], limited: false };
  const h = await pageHarness({
    lang,
    api,
    register: (router: Router, kit: PagesKit) =>
      registerPasswordResetPages(router, {
        ...kit,
        deps: {
          ...kit.deps,
          addressLimiter: {
            policy: { burst: 1, perMinute: 1 },
            take: async (key: string) => (limiter.taken.push(key), limiter.limited ? 1000 : 0),
            refund: async () => undefined,
          },
        },
      }),
  });
  /** A signed-out form post: the double-submit CSRF cookie and field (or a wrong field). */
  const post = async (path: string, form: Record<string, string>, csrf = 'pre-csrf') => {
    const res = await fetch(`${h.url}${path}`, {
      method: 'POST',
      body: new URLSearchParams({ csrf, ...form }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'inv_csrf=pre-csrf' },
      redirect: 'manual',
    });
    return { status: res.status, html: await res.text(), location: res.headers.get('location') };
  };
  return { h, post, limiter };
}

describe('password reset pages', () => {
  it('asks for a link with the e-mail address and answers the same whatever the API knows', async () => {
    const { h, post, limiter } = await harness((c) => (c.path === '/auth/password-resets' ? { status: 202 } : undefined));
    try {
      const form = await h.get('/app/forgot-password');
      expect(form.status).toBe(200);
      expect(form.html).toContain('<label for="email">');
      expect(form.html).toContain('action="/app/forgot-password"');
      const sent = await post('/app/forgot-password', { email: ' anna@test.example ' });
      expect(sent.status).toBe(200);
      expect(sent.html).toContain('If the address is known, a link is on its way.');
      expect(h.calls).toEqual([
        expect.objectContaining({ method: 'POST', path: '/auth/password-resets', body: { email: 'anna@test.example' } }),
      ]);
      expect(h.calls[0]!.authorization).toBeUndefined();
      expect(limiter.taken).toEqual([expect.stringMatching(/^password-reset:/)]);
      // the address is not kept in the answer (the same page for any address)
      expect(sent.html).not.toContain('anna@test.example');
    } finally {
      await h.close();
    }
  });

  it('refuses a bad address, a forged form and too many requests without asking the API', async () => {
    const { h, post, limiter } = await harness(() => ({ status: 202 }), 'de');
    try {
      const bad = await post('/app/forgot-password', { email: '<script>alert(1)</script>' });
      expect(bad.status).toBe(400);
      expect(bad.html).toContain('gültige E-Mail-Adresse');
      expect(bad.html).not.toContain('<script>alert');
      expect((await post('/app/forgot-password', { email: 'a@b.example' }, 'forged')).status).toBe(403);
      limiter.limited = true;
      const many = await post('/app/forgot-password', { email: 'a@b.example' });
      expect(many.status).toBe(429);
      expect(many.html).toContain('Zu viele Anfragen');
      expect(h.calls).toHaveLength(0);
    } finally {
      await h.close();
    }
  });

  it('sets the new password with the token and sends the browser to sign-in', async () => {
    const { h, post } = await harness((c) =>
      c.path === '/auth/password-resets/confirm'
        ? { status: 200, body: { message: 'the new password is set; sign in with it' } }
        : undefined,
    );
    try {
      const form = await h.get('/app/reset-password');
      expect(form.status).toBe(200);
      // the token comes from the link's fragment, filled in by the page's script
      expect(form.html).toContain('id="token" name="token" value=""');
      expect(form.html).toContain('autocomplete="new-password"');
      const done = await post('/app/reset-password', { token: TOKEN, password: 'correct horse battery' });
      expect(done).toMatchObject({ status: 303, location: '/app/?password=changed' });
      expect(h.calls).toEqual([
        expect.objectContaining({ path: '/auth/password-resets/confirm', body: { token: TOKEN, password: 'correct horse battery' } }),
      ]);
    } finally {
      await h.close();
    }
  });

  it('keeps the token after a too short password and offers a new link for a used one', async () => {
    const { h, post } = await harness(() => ({ status: 404, body: { code: 'NOT_FOUND', detail: 'the reset link is unknown' } }), 'de');
    try {
      const short = await post('/app/reset-password', { token: TOKEN, password: 'short' });
      expect(short.status).toBe(400);
      expect(short.html).toContain('mindestens 12 Zeichen');
      expect(short.html).toContain(`value="${TOKEN}"`);
      expect(h.calls).toHaveLength(0);
      const crafted = await post('/app/reset-password', { token: '../x', password: 'correct horse battery' });
      expect(crafted.status).toBe(404);
      expect(h.calls).toHaveLength(0);
      const used = await post('/app/reset-password', { token: TOKEN, password: 'correct horse battery' });
      expect(used.status).toBe(404);
      expect(used.html).toContain('schon benutzt oder abgelaufen');
      expect(used.html).toContain('href="/app/forgot-password"');
      expect(used.html).not.toContain(TOKEN);
      expect((await post('/app/reset-password', { token: TOKEN, password: 'correct horse battery' }, 'forged')).status).toBe(403);
    } finally {
      await h.close();
    }
  });

  it('links the sign-in page to the form and says there that the password was changed', async () => {
    const h = await pageHarness({
      lang: 'de',
      api: () => undefined,
      register: (router: Router, kit: PagesKit) =>
        registerSignInPages(router, { ...kit, sessions: { get: async () => undefined } as unknown as SessionStore }),
    });
    try {
      const plain = await h.get('/app/');
      expect(plain.html).toContain('<a href="/app/forgot-password">Passwort vergessen?</a>');
      expect(plain.html).not.toContain('Ihr Passwort ist geändert');
      const after = await h.get('/app/?password=changed');
      expect(after.html).toContain('<p class="msg ok">Ihr Passwort ist geändert. Melden Sie sich mit dem neuen Passwort an.</p>');
    } finally {
      await h.close();
    }
  });
});
