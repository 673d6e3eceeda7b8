import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(__dirname, '../../..');

/** The npm packages a module loads, followed through our own sources (bundled as the services are). */
async function packagesLoadedBy(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [path.join(ROOT, entry)],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    tsconfig: path.join(ROOT, 'tsconfig.base.json'),
    metafile: true,
    logLevel: 'silent',
  });
  const imports = Object.values(result.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path));
  return [...new Set(imports)].filter((p) => !p.startsWith('node:')).sort();
}

describe('@inv/einvoice/rules', () => {
  it('loads no XML writer: the rules a service validates by come without xmlbuilder2 (idle RSS)', async () => {
    expect(await packagesLoadedBy('libs/einvoice/src/rules.ts')).toEqual(['decimal.js']);
    // the barrel still has everything
    expect(await packagesLoadedBy('libs/einvoice/src/index.ts')).toEqual(expect.arrayContaining(['decimal.js', 'xmlbuilder2']));
  });

  it('is what invoice-service validates with and what document-service lists treatments from', async () => {
    for (const entry of [
      'apps/invoice-service/src/invoices/usecases/validate-invoice.ts',
      'apps/document-service/src/http/catalog.routes.ts',
    ])
      expect(await packagesLoadedBy(entry)).not.toContain('xmlbuilder2');
  });
});
