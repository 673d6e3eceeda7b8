import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderStatementPdf } from './index';
import { sampleStatement } from './testing/fixtures';

const haveTools = spawnSync('sh', ['-c', 'command -v pdftotext']).status === 0;

/** A test twin's account statement is marked TEST too (docs/test-mode.md); a live one is not. */
(haveTools ? describe : describe.skip)('test-mode statement', () => {
  it('says on every page that it was created in test mode', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tm-statement-'));
    try {
      const text = async (testMode: boolean) => {
        const file = join(dir, `${testMode}.pdf`);
        writeFileSync(file, await renderStatementPdf(sampleStatement(12, 'en'), { testMode }));
        return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
      };
      expect(await text(true)).toContain('TEST – created in test mode, not a valid document');
      expect(await text(false)).not.toContain('created in test mode');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
