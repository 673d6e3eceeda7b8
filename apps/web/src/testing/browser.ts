import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);
/** Where screenshots go (ignored by git): test-artifacts/ at the repository's root. */
export const ARTIFACTS = resolve(__dirname, '../../../../test-artifacts');

/** Debian's Chromium, headless, as the browser tests run it. */
export async function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
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
}

/** axe-core's violations of impact serious or critical on the page as it is now (WCAG 2.1 A and AA rules). */
export async function seriousViolations(page: Page): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  // a string, so the compiler (no DOM types here) does not type the browser's side
  const found = await page.evaluate<{ id: string; impact: string; nodes: string[] }[]>(`(async () => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  })()`);
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * Looks at a page the way its users will: at 1280 and at 390 px wide (and 360), it never scrolls sideways, and
 * axe-core finds no serious violation. Screenshots go to test-artifacts/<name>-<width>.png.
 */
export async function lookAt(page: Page, url: string, name: string): Promise<void> {
  for (const width of [1280, 390, 360]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
    await page.goto(url);
    const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
    if (scrollWidth > width) throw new Error(`${name} scrolls sideways at ${width} px (${scrollWidth} px wide)`);
    if (width !== 360) await page.screenshot({ path: resolve(ARTIFACTS, `${name}-${width}.png`), fullPage: true });
  }
  const violations = await seriousViolations(page);
  if (violations.length) throw new Error(`${name}: axe-core found ${JSON.stringify(violations, null, 1)}`);
}
