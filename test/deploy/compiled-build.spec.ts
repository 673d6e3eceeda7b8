/**
 * The production build (tools/build-services.mjs, run by the image): every service compiles to one
 * JavaScript file, the packages it loads at run time are all production dependencies (the image prunes
 * dev dependencies), and a compiled service starts with plain node, no tsx, and answers /healthz and /metrics.
 */
import { spawn, spawnSync } from 'node:child_process';
import Module, { builtinModules } from 'node:module';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { buildSync } from 'esbuild';
import { createServer } from 'node:net';
import path from 'node:path';
import { SERVICES as DEPLOYABLE } from '@inv/runtime';
import { uniquePrefix } from '@inv/testing';

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '../..');
const SERVICES = [
  'gateway',
  'account-service',
  'customer-service',
  'invoice-service',
  'document-service',
  'vat-service',
  'export-service',
  'quota-service',
  'recurring-service',
  'inbound-service',
  'webhook-service',
  'web',
];

interface Metafile {
  outputs: Record<string, { imports?: { path: string; external?: boolean }[] }>;
}

describe('compiled services', () => {
  // inside the repository (tmp/ is ignored), so the bundles find node_modules as dist/ does
  mkdirSync(path.join(ROOT, 'tmp'), { recursive: true });
  const out = mkdtempSync(path.join(ROOT, 'tmp', 'build-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  beforeAll(() => {
    const built = spawnSync(process.execPath, ['tools/build-services.mjs'], {
      cwd: ROOT,
      env: { ...process.env, BUILD_OUT: out },
      encoding: 'utf8',
    });
    if (built.status !== 0) throw new Error(`build failed:\n${built.stderr}`);
  });

  it('builds every deployable service (the launcher list; webhook-service was missing: its image had no bundle)', () => {
    expect([...SERVICES].sort()).toEqual(
      Object.values(DEPLOYABLE)
        .map((s) => s.dir)
        .sort(),
    );
  });

  it('builds one bundle per service (and the render worker), each started by its main.js, and ships the VIES WSDL beside them', () => {
    for (const s of SERVICES)
      expect([s, existsSync(path.join(out, s, 'main.js')), existsSync(path.join(out, s, 'service.js'))]).toEqual([s, true, true]);
    // document-service starts its render worker threads from the file beside its bundle
    expect(existsSync(path.join(out, 'document-service', 'render.worker.js'))).toBe(true);
    expect(existsSync(path.join(out, 'document-service', 'render.worker.bundle.js'))).toBe(true);
    // and inbound-service its validation worker threads
    expect(existsSync(path.join(out, 'inbound-service', 'inspect.worker.js'))).toBe(true);
    expect(readFileSync(path.join(out, 'assets', 'checkVatService.wsdl'), 'utf8')).toContain('checkVat');
  });

  it("maps stack traces to our TypeScript through a service's main.js, and not those of npm packages", () => {
    // a bundle of one TypeScript file, built as build-services builds, started by the same entry as a service
    const dir = mkdtempSync(path.join(out, 'stub-'));
    const source = path.join(dir, 'failing.ts');
    writeFileSync(
      source,
      [
        "import { getSourceMapsSupport } from 'node:module';",
        'function fail(): never {',
        "  throw new Error('mapped?');",
        '}',
        'try {',
        '  fail();',
        '} catch (err) {',
        '  console.log(JSON.stringify({ stack: (err as Error).stack, support: getSourceMapsSupport?.() }));',
        '}',
        '',
      ].join('\n'),
    );
    buildSync({
      entryPoints: [source],
      outfile: path.join(dir, 'service.js'),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      sourcemap: true,
    });
    copyFileSync(path.join(out, 'gateway', 'main.js'), path.join(dir, 'main.js'));
    const run = spawnSync(process.execPath, [path.join(dir, 'main.js')], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(run.stderr).toBe('');
    const { stack, support } = JSON.parse(run.stdout) as { stack: string; support?: { enabled: boolean; nodeModules: boolean } };
    expect(stack).toMatch(/failing\.ts:3:\d+/);
    // Node >= 22.14 (the image): npm packages' own source maps are not read; older Node maps every file
    if (typeof (Module as { setSourceMapsSupport?: unknown }).setSourceMapsSupport === 'function')
      expect(support).toEqual(expect.objectContaining({ enabled: true, nodeModules: false }));
  });

  it("document-service's render worker entry hands piscina the bundle's render function, which renders", () => {
    const entry = path.join(out, 'document-service', 'render.worker.js');
    const script = `require(${JSON.stringify(entry)}).default({ kind: 'warm-up' }).then((r) => console.log(JSON.stringify(r)))`;
    const run = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual(expect.objectContaining({ ok: true, warmUpMs: expect.any(Number) }));
  });

  it('loads only production dependencies at run time', () => {
    const meta = JSON.parse(readFileSync(path.join(out, 'meta.json'), 'utf8')) as Metafile;
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const external = new Set<string>();
    for (const o of Object.values(meta.outputs)) {
      for (const i of o.imports ?? []) {
        if (!i.external || i.path.startsWith('node:') || builtinModules.includes(i.path)) continue;
        external.add(i.path.startsWith('@') ? i.path.split('/').slice(0, 2).join('/') : i.path.split('/')[0]);
      }
    }
    expect(external.size).toBeGreaterThan(10);
    // docs-page.ts's require.resolve('@scalar/api-reference') is the development fallback only: the compiled
    // gateway finds the copy beside it first (checked below)
    const devOnlyFallbacks = ['@scalar/api-reference'];
    expect([...external].filter((name) => !(name in pkg.dependencies) && !devOnlyFallbacks.includes(name))).toEqual([]);
  });

  it("keeps the render worker light: it loads neither zod nor the API's schemas (each worker is an isolate of its own)", () => {
    const meta = JSON.parse(readFileSync(path.join(out, 'meta.json'), 'utf8')) as Metafile;
    const [, worker] = Object.entries(meta.outputs).find(([file]) => file.endsWith('document-service/render.worker.bundle.js'))!;
    const packages = (worker.imports ?? []).filter((i) => i.external).map((i) => i.path);
    expect(packages).toEqual(expect.arrayContaining(['pdfkit', 'fontkit', 'xmlbuilder2']));
    expect(packages.filter((p) => p === 'zod' || p.startsWith('zod/') || p === 'jsvat')).toEqual([]);
  });

  it('starts the compiled gateway with plain node: /healthz and /metrics answer', async () => {
    const port = await new Promise<number>((ok) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => ok(p));
      });
    });
    const child = spawn(process.execPath, [path.join(out, 'gateway', 'main.js')], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        PORT: String(port),
        LOG_LEVEL: 'silent',
        REDIS_PREFIX: `${uniquePrefix()}:`,
        NODE_OPTIONS: '',
      },
      stdio: 'ignore',
    });
    try {
      const deadline = Date.now() + 30_000;
      let ok = false;
      while (!ok && Date.now() < deadline && child.exitCode === null) {
        ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
        if (!ok) await new Promise((r) => setTimeout(r, 50));
      }
      expect(ok).toBe(true);
      const metrics = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('http_server_requests_total{service="gateway",method="GET",route="/healthz",status="200"}');
      // the API reference bundle comes from the copy beside main.js (@scalar/api-reference is a dev dependency)
      const scalar = await fetch(`http://127.0.0.1:${port}/api/v1/docs/scalar.js`);
      expect(scalar.status).toBe(200);
      expect(Number((await scalar.arrayBuffer()).byteLength)).toBe(readFileSync(path.join(out, 'gateway', 'scalar-standalone.js')).length);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
    }
  });
});
