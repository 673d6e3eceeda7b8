import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fixtureScenarios } from './fixtures';
import { einvoiceFormats, toEInvoiceXml, type EInvoiceFormat } from './formats';

/**
 * Generates every (scenario, format) XML into a temp dir and runs the official conformance kit ONCE
 * per format on all files of that format (each call costs ~1 s plus a one-off SEF compile).
 */
const VALIDATE = process.env.EINVOICE_VALIDATE ?? join(__dirname, '../../../../shared/conformance/validate');
const run = promisify(execFile);

describe('conformance kit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'einvoice-conformance-'));
  const files = new Map<EInvoiceFormat, string[]>();
  for (const format of einvoiceFormats) files.set(format, []);
  for (const scenario of fixtureScenarios) {
    for (const format of scenario.formats) {
      const file = join(dir, `${format}__${scenario.name}.xml`);
      writeFileSync(file, toEInvoiceXml(format, scenario.build()));
      files.get(format)!.push(file);
    }
  }
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(einvoiceFormats.map((f) => [f]))(
    '%s: every generated file passes validate',
    async (format) => {
      const list = files.get(format)!;
      expect(list.length).toBeGreaterThan(0);
      const started = Date.now();
      let stdout: string;
      try {
        ({ stdout } = await run(VALIDATE, ['-n', '0', format, ...list], { maxBuffer: 64 * 1024 * 1024 }));
      } catch (e) {
        const err = e as { stdout?: string; stderr?: string; code?: number };
        throw new Error(`validate ${format} exited ${err.code}:\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
      }
      const passed = stdout.split('\n').filter((l) => l.startsWith('PASS ')).length;
      expect(passed).toBe(list.length);
      // visible in the test output, for the timing figures in the report
      process.stdout.write(`validate ${format}: ${list.length} files PASS in ${Date.now() - started} ms\n`);
    },
    180_000,
  );
});
