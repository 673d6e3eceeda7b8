import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (CHROMIUM_PATH overrides); the browser tests skip, loudly, without it. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);
/** Where screenshots go (ignored by git). */
export const ARTIFACTS = resolve(__dirname, '../../test-artifacts');

/**
 * How long a click, a fill or a navigation may take. The whole system runs on the CI machine's two cores beside the
 * other projects' browser tests: a page that waits for a core answers late, not wrong. Playwright's 30 s default made
 * such a wait a failure; a page that never answers still fails, after this.
 */
export const BROWSER_ACTION_TIMEOUT_MS = 90_000;

/** Debian's Chromium, headless, as every browser test runs it; each context it opens waits as long as above. */
export async function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    timeout: BROWSER_ACTION_TIMEOUT_MS,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    context.setDefaultTimeout(BROWSER_ACTION_TIMEOUT_MS);
    context.setDefaultNavigationTimeout(BROWSER_ACTION_TIMEOUT_MS);
    return context;
  };
  return browser;
}
