import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ALL_SERVICES, apiClient, startSystem, type System } from '../support/system';

jest.setTimeout(300_000);

interface Block {
  n: number;
  section: string;
  text: string;
}

/** The README's ```sh blocks in order, each with the heading it stands under. */
function shellBlocks(readme: string): Block[] {
  const blocks: Block[] = [];
  let section = '';
  let inside: string[] | undefined;
  for (const line of readme.split('\n')) {
    if (inside) {
      if (line.startsWith('```')) {
        blocks.push({ n: blocks.length + 1, section, text: inside.join('\n') });
        inside = undefined;
      } else inside.push(line);
    } else if (line.startsWith('```sh')) inside = [];
    else if (/^#{2,3} /.test(line)) section = line.replace(/^#+ /, '');
  }
  return blocks;
}

/**
 * Blocks the test does not run, by their first line, and why. Every other block must talk to the API ($B and $K).
 */
const SKIPPED: Record<string, string> = {
  'npm run -s admin -- company create': 'the operator command over the bus (test/e2e/accounts.e2e.spec.ts runs it)',
};

/** The reader's own values in the quick start; the test sets K and B to its system's instead. */
const READER_VALUES = 'K=ak_live_...   B=http://127.0.0.1:8080/api/v1';

/** Every curl goes through this: one try, the answer printed, anything but 2xx fails the script. */
const PRELUDE = String.raw`set -euo pipefail
shopt -s inherit_errexit
curl() {
  local out status
  out=$(mktemp)
  if ! status=$(command curl -sS -o "$out" -w '%{http_code}' "$@"); then
    cat "$out"; echo "curl failed: curl $*" >&2; return 1
  fi
  cat "$out"; rm -f "$out"
  echo "  -> HTTP $status: curl $*" >&2
  case "$status" in 2??) ;; *) echo "non-2xx answer $status" >&2; return 1 ;; esac
}
`;

/** A 1 x 1 PNG (the logo) and a small PDF (the attachment), in the directory the blocks run in. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const PDF = [
  '%PDF-1.4',
  '1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj',
  '2 0 obj <</Type/Pages/Kids[3 0 R]/Count 1>> endobj',
  '3 0 obj <</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>> endobj',
  'trailer <</Root 1 0 R>>',
  '%%EOF',
  '',
].join('\n');

function run(script: string, cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; output: string }>((done) => {
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => done({ code, output }));
  });
}

/**
 * The walkthrough (docs/walkthrough.md) runs as written: its API blocks, in order and sharing their shell variables
 * as a reader's shell does, against a fresh system; any non-2xx answer fails. Then the company's own data is all that
 * is left of the demo's. The README's one walkthrough is the walkthrough's first block, word for word.
 */
describe('e2e: the README and its walkthrough run verbatim', () => {
  let system: System;
  let dir: string;
  const api = apiClient(
    () => system.base,
    () => system.apiKey,
  );

  beforeAll(async () => {
    // every service the README shows, the webhook, inbound and recurring ones too
    system = await startSystem({
      kind: 'readme',
      services: [...ALL_SERVICES, 'webhook', 'inbound', 'recurring'],
      env: { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn' },
    });
    dir = mkdtempSync(join(tmpdir(), 'readme-'));
    writeFileSync(join(dir, 'logo.png'), Buffer.from(PNG, 'base64'));
    writeFileSync(join(dir, 'terms.pdf'), PDF);
  });

  afterAll(async () => {
    await system?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const blocks = shellBlocks(readFileSync(resolve(__dirname, '../../docs/walkthrough.md'), 'utf8'));
  const readmeBlocks = shellBlocks(readFileSync(resolve(__dirname, '../../README.md'), 'utf8'));
  const skipped = blocks.filter((b) => Object.keys(SKIPPED).some((first) => b.text.startsWith(first)));
  const walkthrough = blocks.filter((b) => !skipped.includes(b));

  it('skips only the listed blocks; every other block talks to the API', () => {
    expect(skipped.map((b) => Object.keys(SKIPPED).find((first) => b.text.startsWith(first)))).toEqual(Object.keys(SKIPPED));
    for (const b of walkthrough) expect([b.section, b.text.includes('$B') && b.text.includes('$K')]).toEqual([b.section, true]);
    expect(walkthrough[0]!.text.split('\n')).toContain(READER_VALUES);
  });

  it("has the README's blocks: the two commands and the walkthrough's first block, word for word", () => {
    expect(readmeBlocks.map((b) => b.text.split('\n')[0])).toEqual([expect.stringMatching(/^npm install && npm start/), READER_VALUES]);
    expect(readmeBlocks[1]!.text).toBe(walkthrough[0]!.text);
  });

  it('runs every API block in walkthrough order, each curl answered 2xx at the first try', async () => {
    const script =
      PRELUDE +
      walkthrough
        .map((b) => {
          const text = b.text.replace(READER_VALUES, ': reader values replaced by the test');
          return `echo "@@ block ${b.n} (${b.section})" >&2\n${text}\n`;
        })
        .join('');
    const started = Date.now();
    const { code, output } = await run(script, dir, { ...process.env, K: system.apiKey, B: system.base });
    const shown = output.split(system.apiKey).join('$K');
    const failed = [...shown.matchAll(/@@ block (\d+)/g)].pop()?.[1];
    if (code !== 0) {
      const block = blocks.find((b) => String(b.n) === failed);
      throw new Error(
        `Walkthrough block ${failed} (${block?.section}) failed with exit ${code}:\n${block?.text}\n--- output of the run ---\n${shown}`,
      );
    }
    process.stdout.write(`walkthrough blocks ran in ${Date.now() - started} ms\n`);
    expect(failed).toBe(String(walkthrough.at(-1)!.n));
  });

  it("leaves only the company's own data after its company block: no demo value, its own account the default", async () => {
    const company = await api('GET', '/company/');
    expect(company.status).toBe(200);
    expect(company.body).toMatchObject({
      legal_name: 'Beispiel Software GmbH',
      trading_name: 'Beispiel Software GmbH',
      address: { line1: 'Hauptstraße 5', postal_code: '80331', city: 'München', country_code: 'DE' },
      email: 'billing@beispiel.example',
      contact_name: null,
      phone: null,
      tax_number: '143/123/45678',
      registration_id: 'HRB 4711',
    });
    const json = JSON.stringify(company.body);
    for (const demo of [
      'Muster Software',
      'muster-software',
      'Friedrichstraße',
      'Berlin',
      '+49 30 1234567',
      '30/123/45678',
      'HRB 123456 B',
      'Charlottenburg',
      'DE02120300000000202051',
      'Kreditbank',
    ])
      expect([demo, json.includes(demo)]).toEqual([demo, false]);
    const accounts = await api('GET', '/company/bank-accounts');
    expect(accounts.body.bank_accounts).toEqual([
      expect.objectContaining({ iban: 'DE89370400440532013000', bank_name: 'Commerzbank', is_default: true }),
    ]);
  });
});
