import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { OPENAPI_FILE } from './write';

jest.setTimeout(120_000);
const run = promisify(execFile);
const root = resolve(__dirname, '../../../..');

/** A client generated from docs/openapi.json with openapi-typescript type-checks a program that uses it. */
describe('generated TypeScript client', () => {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists invoices, reads total, and reads the 402 usage of finalization', async () => {
    await run(join(root, 'node_modules/.bin/openapi-typescript'), [OPENAPI_FILE, '-o', join(dir, 'api.d.ts')], { cwd: root });
    writeFileSync(
      join(dir, 'program.ts'),
      `import type { paths, components } from './api';
type InvoicePage = paths['/invoice/']['get']['responses'][200]['content']['application/json'];
type Quota = paths['/invoice/{id}/job']['post']['responses'][402]['content']['application/problem+json'];
type Customers = paths['/customer/']['get']['responses'][200]['content']['application/json'];
export function summary(page: InvoicePage, quota: Quota, customers: Customers): string {
  const total: number = page.total;
  const first: components['schemas']['Invoice'] | undefined = page.invoices[0];
  const used: number = quota.usage.used;
  const top: number = quota.limit;
  const code: components['schemas']['ErrorCode'] = quota.error_code;
  const name: string | null = customers[0]?.organization_name ?? null;
  return [total, first?.invoice_number, used, top, code, name].join(' ');
}
// a request body the SDK sends: optional fields as null
export const position: paths['/invoice/{id}/positions']['post']['requestBody']['content']['application/json'] = {
  title: 'Beratung', quantity: 1, unit_id: 'HUR', unit_net_amount: 95, description: null, discount_type: null,
};
`,
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'commonjs', skipLibCheck: false },
        files: ['program.ts'],
      }),
    );
    const result = await run(join(root, 'node_modules/.bin/tsc'), ['-p', join(dir, 'tsconfig.json')], { cwd: dir }).catch(
      (err: { stdout?: string }) => ({ stdout: `FAILED ${err.stdout}` }),
    );
    expect(result.stdout).toBe('');
  });
});
