import type { Browser } from 'playwright-core';
import { haveChromium, launchChromium, lookAt } from '../../testing/browser';
import { pageHarness } from '../../testing/page-harness';
import { registerMemberPages } from './members.pages';

jest.setTimeout(60_000);
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
    {
      id: '0123456789abcdef01234568',
      email: 'a-very-long-address-for-a-narrow-screen@subdomain.example-company.de',
      role: 'viewer',
      status: 'invited',
      created_at: '2026-11-01T10:00:00.000Z',
      invitation_expires_at: '2026-11-08T10:00:00.000Z',
    },
    {
      id: '0123456789abcdef01234569',
      email: 'maximiliane.mustermann-schulze@buchhaltung.example-gmbh.de',
      role: 'admin',
      status: 'active',
      created_at: '2026-11-02T10:00:00.000Z',
      invitation_expires_at: null,
    },
    {
      id: '0123456789abcdef0123456a',
      email: 'ben@test.example',
      role: 'member',
      status: 'active',
      created_at: '2026-11-03T10:00:00.000Z',
      invitation_expires_at: null,
    },
  ],
};

(haveChromium ? describe : describe.skip)('members page in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => void (browser = await launchChromium()));
  afterAll(async () => browser?.close());

  it.each([
    ['owner', 'en'],
    ['viewer', 'de'],
  ] as const)('as %s in %s: no sideways scrolling at 1280/390/360 px, no serious axe-core violation', async (role, lang) => {
    const h = await pageHarness({ register: registerMemberPages, role, lang, api: () => ({ status: 200, body: members }) });
    const page = await browser.newPage();
    try {
      await lookAt(page, `${h.url}/app/members`, `web-members-${role}-${lang}`);
      if (role === 'owner')
        await lookAt(page, `${h.url}/app/members/0123456789abcdef01234569/remove`, `web-members-remove-${role}-${lang}`);
    } finally {
      await page.close();
      await h.close();
    }
  });
});
