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
