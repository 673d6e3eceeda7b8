import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { defaultKitDir, defaultSefCacheDir, openConformanceKit } from './conformance-kit';
import { inspectXml, type Inspection } from './inspect';

/**
 * Documents nobody here wrote: every official example of the conformance kit, and broken variants of them,
 * read and validated in-process; the kit's own `validate` script (xmllint + SaxonJS, run once per format on
 * all its files) must give the same verdict and the same error rule ids.
 */
jest.setTimeout(600_000);

const KIT = process.env.INBOUND_CONFORMANCE_DIR ?? defaultKitDir();
const run = promisify(execFile);
const kit = openConformanceKit(KIT, defaultSefCacheDir());
const work = mkdtempSync(join(tmpdir(), 'inbound-conformance-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const examples = (dir: string, filter: (name: string) => boolean = () => true) =>
  readdirSync(join(KIT, dir))
    .filter((n) => n.endsWith('.xml') && filter(n))
    .map((n) => join(KIT, dir, n));

/** A variant of an example written to the work folder. */
function variant(source: string, name: string, edit: (xml: string) => string): string {
  const xml = readFileSync(source, 'utf8');
  const changed = edit(xml);
  if (changed === xml) throw new Error(`variant ${name} changed nothing`);
  const file = join(work, name);
  writeFileSync(file, changed);
  return file;
}

const XR_UBL = join(KIT, 'xrechnung/examples/01.01a-INVOICE_ubl.xml');
const XR_CII = join(KIT, 'xrechnung/examples/01.01a-INVOICE_uncefact.xml');
const PEPPOL = join(KIT, 'peppol/examples/base-example.xml');

const GROUPS: { format: string; files: () => string[] }[] = [
  { format: 'cii-en16931', files: () => examples('en16931/cii/examples') },
  { format: 'ubl-en16931', files: () => examples('en16931/ubl/examples') },
  {
    format: 'xrechnung-cii',
    files: () => [
      ...examples('xrechnung/examples', (n) => n.endsWith('_uncefact.xml')),
      variant(XR_CII, 'xr-cii-wrong-grand-total.xml', (x) =>
        x.replace(
          /<ram:GrandTotalAmount>([\d.]+)<\/ram:GrandTotalAmount>/,
          (_m, v: string) => `<ram:GrandTotalAmount>${(Number(v) + 10).toFixed(2)}</ram:GrandTotalAmount>`,
        ),
      ),
    ],
  },
  {
    format: 'xrechnung-ubl',
    files: () => [
      ...examples('xrechnung/examples', (n) => n.endsWith('_ubl.xml')),
      variant(XR_UBL, 'xr-ubl-wrong-tax-inclusive.xml', (x) =>
        x.replace(
          /<cbc:TaxInclusiveAmount currencyID="EUR">([\d.]+)</,
          (_m, v: string) => `<cbc:TaxInclusiveAmount currencyID="EUR">${(Number(v) + 1).toFixed(2)}<`,
        ),
      ),
      variant(XR_UBL, 'xr-ubl-no-buyer-name.xml', (x) =>
        x.replace(
          /(<cac:AccountingCustomerParty>[\s\S]*?<cac:PartyLegalEntity>\s*)<cbc:RegistrationName>[^<]*<\/cbc:RegistrationName>/,
          '$1',
        ),
      ),
    ],
  },
  {
    format: 'peppol-ubl',
    files: () => [
      ...examples('peppol/examples'),
      variant(PEPPOL, 'peppol-no-buyer.xml', (x) => x.replace(/<cac:AccountingCustomerParty>[\s\S]*?<\/cac:AccountingCustomerParty>/, '')),
    ],
  },
];

/** The kit's verdict per file: PASS, or the error ids it lists (`-n 0`: all of them). */
async function kitVerdicts(format: string, files: string[]): Promise<Map<string, string[]>> {
  const out = await run(join(KIT, 'validate'), ['-n', '0', format, ...files], { maxBuffer: 64 * 1024 * 1024 }).then(
    (r) => r.stdout,
    (err: { stdout?: string; code?: number }) => {
      if (err.code !== 1) throw err;
      return err.stdout ?? '';
    },
  );
  const verdicts = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of out.split('\n')) {
    const head = /^(PASS|FAIL) (.+?)(?::\s\d+ errors)?$/.exec(line);
    if (head) {
      current = [];
      verdicts.set(basename(head[2]!), current);
      continue;
    }
    const err = /^\s{2}\[([^\]]+)\]/.exec(line);
    if (err && current) current.push(err[1]!);
  }
  return verdicts;
}

const errorIds = (r: Inspection) =>
  r.report.findings.filter((f) => (f.severity === 'fatal' || f.severity === 'error') && f.source !== 'arithmetic').map((f) => f.rule);

describe.each(GROUPS)('$format: same findings as the kit', ({ format, files }) => {
  const list = files();
  let verdicts: Map<string, string[]>;
  const ours = new Map<string, Inspection>();
  beforeAll(async () => {
    verdicts = await kitVerdicts(format, list);
    for (const f of list) ours.set(basename(f), await inspectXml(kit, readFileSync(f), { maxBytes: 5 * 1024 * 1024 }));
  });

  it.each(list.map((f) => basename(f)))('%s', (name) => {
    const mine = ours.get(name)!;
    expect(mine.report.format).toBe(format);
    const theirs = verdicts.get(name);
    expect(theirs).toBeDefined();
    expect({ valid: mine.report.valid, errors: [...new Set(errorIds(mine))].sort() }).toEqual({
      valid: theirs!.length === 0 && !mine.report.findings.some((f) => f.source === 'arithmetic'),
      errors: [...new Set(theirs)].sort(),
    });
  });
});

describe('broken variants name the rule they break', () => {
  it('a wrong total with VAT is BR-CO-15, and our arithmetic check says so too', async () => {
    const r = await inspectXml(kit, readFileSync(join(work, 'xr-ubl-wrong-tax-inclusive.xml')), { maxBytes: 5e6 });
    expect(r.report.valid).toBe(false);
    expect(r.report.findings.map((f) => f.rule)).toEqual(expect.arrayContaining(['BR-CO-15', 'INB-ARITH-TAX-INCLUSIVE']));
  });
  it('a missing buyer is BR-07 (buyer name) in Peppol, with its location', async () => {
    const r = await inspectXml(kit, readFileSync(join(work, 'peppol-no-buyer.xml')), { maxBytes: 5e6 });
    expect(r.report.valid).toBe(false);
    expect(r.report.findings.find((f) => f.rule === 'BR-07')).toMatchObject({
      severity: 'fatal',
      location: '/Invoice[1]',
      source: 'en16931',
    });
  });
});
