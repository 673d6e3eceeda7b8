import { pageHarness } from '../../testing/page-harness';
import { registerMemberPages } from './members.pages';

const members = {
  members: [
    {
      id: '0123456789abcdef01234567',
      email: 'anna@test.example',
      role: 'owner',
      status: 'active',
      created_at: '2026-11-01T10:00:00.000Z',
      invitation_expires_at: null,
    },
  ],
};

describe('members pages', () => {
  it('lists the members with the session access token and offers the invitation to an owner', async () => {
    const h = await pageHarness({
      register: registerMemberPages,
      api: (c) => (c.path === '/members/' ? { status: 200, body: members } : undefined),
    });
    try {
      const page = await h.get('/app/members');
      expect(page.status).toBe(200);
      expect(page.html).toContain('anna@test.example');
      expect(page.html).toContain('action="/app/members"');
      expect(h.calls[0]!.authorization).toMatch(/^Bearer mt_/);
    } finally {
      await h.close();
    }
  });

  it('refuses an invitation by a viewer with a 403 in the page language, without calling the API', async () => {
    const h = await pageHarness({ register: registerMemberPages, role: 'viewer', lang: 'de', api: () => ({ status: 200, body: members }) });
    try {
      expect((await h.get('/app/members')).html).not.toContain('action="/app/members"');
      const posted = await h.post('/app/members', { email: 'x@test.example', role: 'member' });
      expect(posted.status).toBe(403);
      expect(posted.html).toContain('Ihre Rolle darf das nicht');
      expect(h.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    } finally {
      await h.close();
    }
  });
});

const team = {
  members: [
    ...members.members,
    {
      id: '0123456789abcdef01234568',
      email: 'ben<script>@test.example',
      role: 'member',
      status: 'active',
      created_at: '2026-11-02T10:00:00.000Z',
      invitation_expires_at: null,
    },
    {
      id: '0123456789abcdef01234569',
      email: 'carla@test.example',
      role: 'owner',
      status: 'active',
      created_at: '2026-11-03T10:00:00.000Z',
      invitation_expires_at: null,
    },
  ],
};
const BEN = '0123456789abcdef01234568';
const CARLA = '0123456789abcdef01234569';
const ANNA = '0123456789abcdef01234567';
const memberApi =
  (over: (c: { method: string; path: string }) => { status: number; body?: unknown } | undefined = () => undefined) =>
  (c: { method: string; path: string; body: unknown }) => {
    const o = over(c);
    if (o) return o;
    if (c.method === 'GET' && c.path === '/members/') return { status: 200, body: team };
    if (c.method === 'PUT' && c.path === `/members/${BEN}`)
      return { status: 200, body: { message: 'role changed', ...team.members[1], role: (c.body as { role: string }).role } };
    if (c.method === 'DELETE' && c.path === `/members/${BEN}`) return { status: 200, body: { message: 'member removed' } };
    return undefined;
  };

describe('member role changes and removal', () => {
  it('offers an owner the role select and removal on every row, escaping the addresses', async () => {
    const h = await pageHarness({ register: registerMemberPages, api: memberApi() });
    try {
      const page = await h.get('/app/members');
      expect(page.html).toContain(`action="/app/members/${BEN}/role"`);
      expect(page.html).toContain(`action="/app/members/${CARLA}/role"`);
      expect(page.html).toContain(`href="/app/members/${BEN}/remove"`);
      expect(page.html).toContain(
        '<label class="sr-only" for="role-0123456789abcdef01234568">Role of ben&lt;script&gt;@test.example</label>',
      );
      expect(page.html).not.toContain('ben<script>');
      expect(page.html).toContain('<option value="owner"');
    } finally {
      await h.close();
    }
  });

  it('changes a role with PUT and says so after the redirect', async () => {
    const h = await pageHarness({ register: registerMemberPages, api: memberApi() });
    try {
      const posted = await h.post(`/app/members/${BEN}/role`, { role: 'viewer' });
      expect(posted).toMatchObject({ status: 303, location: '/app/members' });
      expect(h.calls.at(-1)).toMatchObject({ method: 'PUT', path: `/members/${BEN}`, body: { role: 'viewer' } });
      expect(h.takeFlash()).toEqual({ kind: 'ok', text: 'ben<script>@test.example is now Viewer.' });
    } finally {
      await h.close();
    }
  });

  it('removes a member only after the confirmation page', async () => {
    const h = await pageHarness({ register: registerMemberPages, lang: 'de', api: memberApi() });
    try {
      const confirm = await h.get(`/app/members/${BEN}/remove`);
      expect(confirm.status).toBe(200);
      expect(confirm.html).toContain('ben&lt;script&gt;@test.example wirklich aus dem Unternehmen entfernen?');
      expect(confirm.html).toContain(`action="/app/members/${BEN}/remove"`);
      expect(h.calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
      const posted = await h.post(`/app/members/${BEN}/remove`, {});
      expect(posted).toMatchObject({ status: 303, location: '/app/members' });
      expect(h.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/members/${BEN}`]);
      expect(h.takeFlash()).toEqual({ kind: 'ok', text: 'ben<script>@test.example wurde entfernt.' });
    } finally {
      await h.close();
    }
  });

  it('shows the API refusal translated (the last owner, an owner-only change)', async () => {
    const h = await pageHarness({
      register: registerMemberPages,
      lang: 'de',
      api: memberApi((c) =>
        c.method === 'DELETE' || c.method === 'PUT'
          ? { status: 409, body: { code: 'LAST_OWNER', detail: 'a company always keeps at least one owner' } }
          : undefined,
      ),
    });
    try {
      const removed = await h.post(`/app/members/${ANNA}/remove`, {});
      expect(removed.status).toBe(409);
      expect(removed.html).toContain('Ein Unternehmen behält immer mindestens einen Inhaber.');
      const changed = await h.post(`/app/members/${ANNA}/role`, { role: 'admin' });
      expect(changed.status).toBe(409);
      expect(changed.html).toContain('Ein Unternehmen behält immer mindestens einen Inhaber.');
    } finally {
      await h.close();
    }
  });

  it('gives an admin no action on an owner and no owner role to hand out', async () => {
    const h = await pageHarness({ register: registerMemberPages, role: 'admin', api: memberApi() });
    try {
      const page = await h.get('/app/members');
      expect(page.html).toContain(`action="/app/members/${BEN}/role"`);
      expect(page.html).not.toContain(`action="/app/members/${CARLA}/role"`);
      expect(page.html).not.toContain(`href="/app/members/${CARLA}/remove"`);
      expect(page.html).not.toContain('<option value="owner"');
    } finally {
      await h.close();
    }
  });

  it('refuses a viewer and a member in German without calling the API', async () => {
    for (const role of ['viewer', 'member']) {
      const h = await pageHarness({ register: registerMemberPages, role, lang: 'de', api: memberApi() });
      try {
        const page = await h.get('/app/members');
        expect(page.html).not.toContain('/role"');
        expect(page.html).not.toContain('/remove"');
        for (const r of [
          await h.post(`/app/members/${BEN}/role`, { role: 'owner' }),
          await h.post(`/app/members/${BEN}/remove`, {}),
          await h.get(`/app/members/${BEN}/remove`),
        ]) {
          expect(r.status).toBe(403);
          expect(r.html).toContain('Ihre Rolle darf das nicht');
        }
        expect(h.calls.filter((c) => c.method !== 'GET' || c.path !== '/members/')).toHaveLength(0);
      } finally {
        await h.close();
      }
    }
  });

  it('answers hostile ids and roles without a crafted API call', async () => {
    const h = await pageHarness({ register: registerMemberPages, api: memberApi() });
    try {
      for (const id of ['..%2Fx', '%2e%2e', '0123456789abcdef0123456?', 'x'.repeat(24)]) {
        expect((await h.get(`/app/members/${id}/remove`)).status).toBe(404);
        expect((await h.post(`/app/members/${id}/remove`, {})).status).toBe(404);
        expect((await h.post(`/app/members/${id}/role`, { role: 'admin' })).status).toBe(404);
      }
      expect(h.calls).toHaveLength(0);
      const bad = await h.post(`/app/members/${BEN}/role`, { role: 'superuser' });
      expect(bad.status).toBe(400);
      expect(h.calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
      // an id that is none of the members: 404 page, no DELETE asked for on the confirmation
      expect((await h.get('/app/members/aaaaaaaaaaaaaaaaaaaaaaaa/remove')).status).toBe(404);
      expect((await h.post('/app/members/0123456789abcdef01234567/role', { role: 'admin' }, 'forged')).status).toBe(403);
    } finally {
      await h.close();
    }
  });
});
