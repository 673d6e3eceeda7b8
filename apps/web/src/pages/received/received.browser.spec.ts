import type { Browser } from 'playwright-core';
import { haveChromium, launchChromium, lookAt } from '../../testing/browser';
import { pageHarness, type FakeApi } from '../../testing/page-harness';
import { registerReceivedPages } from './received.pages';
import { inboundDetail, inboundDoc, supplier } from './fixtures';

jest.setTimeout(120_000);

const inbox = Array.from({ length: 12 }, (_, i) =>
  inboundDoc({
    id: 7 + i,
    ...(i % 4 === 1 ? { status: 'PROCESSING', error_count: 0, number: undefined, seller_name: undefined, payable: undefined } : {}),
    ...(i % 4 === 2 ? { valid: true, error_count: 0, document_type: 'CREDIT_NOTE' } : {}),
    ...(i % 4 === 3
      ? {
          status: 'REJECTED',
          error_count: 0,
          number: undefined,
          seller_name: undefined,
          payable: undefined,
          error: { code: 'XML_NOT_WELL_FORMED', message: 'line 1: unexpected end' },
        }
      : {}),
  }),
);
const api: FakeApi = (c) => {
  const path = c.path.split('?')[0];
  if (path === '/inbound/') return { status: 200, body: inbox, headers: { 'x-total-count': '240' } };
  if (path === '/inbound/7') return { status: 200, body: inboundDetail({}, 14) };
  if (path === '/inbound/9') return { status: 200, body: inboundDetail({ id: 9, supplier_id: 3, iban_differs: true, duplicate_of: 7 }) };
  if (path === '/suppliers/3') return { status: 200, body: supplier };
  return undefined;
};

(haveChromium ? describe : describe.skip)('received document pages in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => void (browser = await launchChromium()));
  afterAll(async () => browser?.close());

  it.each([
    ['owner', 'en'],
    ['viewer', 'de'],
  ] as const)('as %s in %s: inbox, document and delete question fit 1280/390/360 px, no serious axe-core violation', async (role, lang) => {
    const h = await pageHarness({ register: registerReceivedPages, role, lang, api });
    const page = await browser.newPage();
    try {
      await lookAt(page, `${h.url}/app/received?status=RECEIVED&page=2`, `web-received-list-${role}-${lang}`);
      await lookAt(page, `${h.url}/app/received/7`, `web-received-detail-${role}-${lang}`);
      await lookAt(page, `${h.url}/app/received/9`, `web-received-matched-${role}-${lang}`);
      if (role === 'owner') await lookAt(page, `${h.url}/app/received/7/delete`, `web-received-delete-${role}-${lang}`);
    } finally {
      await page.close();
      await h.close();
    }
  });
});
