// Compiles every service to one JavaScript file each for production: dist/<service>/service.js, started
// through the small dist/<service>/main.js beside it (see entryStub below).
//
//   node tools/build-services.mjs            (npm run build:services)
//   BUILD_OUT=/some/dir node tools/build-services.mjs   (elsewhere than dist/; the build test uses it)
//
// esbuild bundles our own TypeScript (apps/* and the @inv/* libraries, resolved through tsconfig paths)
// and leaves every npm package external: they are loaded from node_modules at run time exactly as in
// development (native sharp, pdfkit's data files, fonts found with require.resolve). Type checking is a
// separate step (`npm run build`, tsc through nx); tests keep running the sources through @swc/jest.
// Files read relative to a module's directory are copied where the bundles look for them: the VIES WSDL
// (libs/contracts' VIES_WSDL_PATH resolves '../assets/checkVatService.wsdl' from its __dirname, i.e. dist/assets), and
// Scalar's standalone API-reference bundle, the one file of @scalar/api-reference the gateway serves (the
// package itself, with its Vue dependencies, is a dev dependency and not in the image).
import { build } from 'esbuild';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = process.env.BUILD_OUT || join(root, 'dist');
export const SERVICES = [
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

const started = Date.now();
rmSync(out, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: {
    ...Object.fromEntries(SERVICES.map((s) => [`${s}/service`, `apps/${s}/src/main.ts`])),
    // document-service's render worker threads (apps/document-service/src/render/render-pool.ts)
    'document-service/render.worker.bundle': 'apps/document-service/src/render/render.worker.ts',
    // inbound-service's validation worker threads (apps/inbound-service/src/inspection/inspector.ts)
    'inbound-service/inspect.worker.bundle': 'apps/inbound-service/src/inspection/inspect.worker.ts',
    // copies backups to and from object storage (the MongoDB backup CronJob and its restore)
    'objects-cli/main': 'libs/objects/src/cli.ts',
    // lists and replays parked messages (deploy/README.md "Replay parked messages")
    'parking-cli/main': 'libs/runtime/src/parking-cli.ts',
  },
  outdir: out,
  bundle: true,
  platform: 'node',
  // the image and CI run Node 24; development machines may still have Node 20 (npm start works there)
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  tsconfig: 'tsconfig.json',
  sourcemap: true,
  sourcesContent: false,
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});
// Each service and the render worker start through a small entry that turns on source-mapped stack traces for
// our bundle only, then loads it. `node --enable-source-maps` (the image's command before) also reads and parses
// the source map of every npm package file that names one (the MongoDB driver, OpenTelemetry, fontkit, ...):
// bench:finalize measured 10-25 MB more RSS per service under load for it (invoice-service 184 -> 199-204 MB,
// document-service 236-243 -> 256-269 MB) and about 10 MB more at idle (document-service 164 -> 175 MB). Maps
// of files loaded before the call are not read, hence an entry of its own. module.setSourceMapsSupport is
// Node >= 22.14 (the image); older Node maps every file, as the flag did.
const entryStub = (load) => `'use strict';
// Built by tools/build-services.mjs: source-mapped stack traces for our code (not for node_modules), then the bundle.
const sourceMaps = require('node:module').setSourceMapsSupport;
if (sourceMaps) sourceMaps(true, { nodeModules: false, generatedCode: false });
else process.setSourceMapsEnabled(true);
${load}
`;
for (const s of SERVICES) writeFileSync(join(out, s, 'main.js'), entryStub(`require('./service.js');`));
// piscina takes the render function from the worker file's exports
writeFileSync(join(out, 'document-service', 'render.worker.js'), entryStub(`module.exports = require('./render.worker.bundle.js');`));
writeFileSync(join(out, 'inbound-service', 'inspect.worker.js'), entryStub(`module.exports = require('./inspect.worker.bundle.js');`));
mkdirSync(join(out, 'assets'), { recursive: true });
// the VIES WSDL (VIES_WSDL_PATH in libs/contracts resolves to <bundle dir>/../assets)
cpSync(join(root, 'libs/contracts/assets'), join(out, 'assets'), { recursive: true });
const require = createRequire(import.meta.url);
cpSync(join(dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js'), join(out, 'gateway', 'scalar-standalone.js'));
writeFileSync(join(out, 'meta.json'), JSON.stringify(result.metafile));
const bytes = Object.entries(result.metafile.outputs)
  .filter(([f]) => f.endsWith('.js'))
  .reduce((n, [, o]) => n + o.bytes, 0);
console.log(
  `built ${SERVICES.length} services into ${out} (${(bytes / 1024 / 1024).toFixed(1)} MB of JavaScript) in ${Date.now() - started} ms`,
);
