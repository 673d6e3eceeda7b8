import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { visualCases } from './testing/visual';

/**
 * Visual regression: the invoice, credit note and statement in German and English (testing/visual.ts: fixed
 * data, dates, logo and creation date) are rendered, their first page rasterised with pdftoppm at 80 dpi and
 * compared with the references in __visual__/. A pixel counts as different when pixelmatch's colour distance
 * is above THRESHOLD (anti-aliasing ignored); a page fails when more than MAX_DIFF_RATIO of its pixels differ
 * (0.1 %: about 480 pixels of 661 x 935, less than one changed word, more than a poppler/freetype rounding).
 *
 *   UPDATE_VISUAL=1 npx jest --config apps/document-service/jest.config.cjs visual   # rewrite the references
 *
 * On a mismatch the actual page and the diff (changed pixels in red) are written to test-artifacts/visual/.
 */
const REFERENCES = join(__dirname, '__visual__');
const ARTIFACTS = join(__dirname, '../../../../test-artifacts/visual');
const DPI = '80';
const THRESHOLD = 0.1;
const MAX_DIFF_RATIO = 0.001;
const UPDATE = process.env.UPDATE_VISUAL === '1';

const hasPdftoppm = spawnSync('sh', ['-c', 'command -v pdftoppm']).status === 0;
const describeWithPdftoppm = hasPdftoppm ? describe : describe.skip;
if (!hasPdftoppm) {
  console.warn('SKIPPING the visual regression test: pdftoppm not installed (apt-get install -y poppler-utils)');
}

jest.setTimeout(60_000);

describeWithPdftoppm('what the documents look like', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pdf-visual-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** First page as PNG at 80 dpi. */
  async function rasterise(name: string, pdf: Buffer): Promise<Buffer> {
    const file = join(dir, `${name}.pdf`);
    writeFileSync(file, pdf);
    execFileSync('pdftoppm', ['-r', DPI, '-f', '1', '-l', '1', '-singlefile', '-png', file, join(dir, name)]);
    return readFileSync(join(dir, `${name}.png`));
  }

  it.each(visualCases().map((c) => [c.name, c] as const))('%s matches its reference', async (name, c) => {
    const actualPng = await rasterise(name, await c.render());
    const reference = join(REFERENCES, `${name}.png`);
    if (UPDATE || !existsSync(reference)) {
      mkdirSync(REFERENCES, { recursive: true });
      writeFileSync(reference, actualPng);
      if (!UPDATE) console.warn(`visual reference ${name}.png was missing and has been written: review and commit it`);
      return;
    }
    const expected = PNG.sync.read(readFileSync(reference));
    const actual = PNG.sync.read(actualPng);
    const save = (diff?: PNG) => {
      mkdirSync(ARTIFACTS, { recursive: true });
      writeFileSync(join(ARTIFACTS, `${name}.actual.png`), actualPng);
      if (diff) writeFileSync(join(ARTIFACTS, `${name}.diff.png`), PNG.sync.write(diff));
      return `see ${join(ARTIFACTS, name)}.*.png; UPDATE_VISUAL=1 rewrites the reference if the change is wanted`;
    };
    if (actual.width !== expected.width || actual.height !== expected.height) {
      throw new Error(`${name}: page is ${actual.width}x${actual.height}, reference ${expected.width}x${expected.height}; ${save()}`);
    }
    const diff = new PNG({ width: actual.width, height: actual.height });
    const changed = pixelmatch(expected.data, actual.data, diff.data, actual.width, actual.height, { threshold: THRESHOLD });
    const ratio = changed / (actual.width * actual.height);
    if (ratio > MAX_DIFF_RATIO) {
      throw new Error(`${name}: ${changed} pixels (${(ratio * 100).toFixed(2)} %) differ from the reference; ${save(diff)}`);
    }
  });
});
