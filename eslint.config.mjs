import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/**
 * Module boundaries in two dimensions. `scope:*` says whose code it is (a service's, or shared). `type:*`
 * says what kind: `type:app` (deployable services, the launcher, the e2e tests), `type:pure` (contracts,
 * money, einvoice: no I/O, import only pure libs), `type:platform` (bus, service-kit, runtime, outbox,
 * telemetry, objects: what services run on), `type:devtool` (embedded-mongo, vies-simulator, testing:
 * stand-ins and test helpers). Production code never imports a dev tool; test files, benchmarks, the
 * launcher (apps/all) and test/ may (see `devtoolAllowed`).
 */
const scopeConstraints = [
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:launcher', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:shared', 'scope:gateway'] },
  { sourceTag: 'scope:account', onlyDependOnLibsWithTags: ['scope:shared', 'scope:account'] },
  { sourceTag: 'scope:customer', onlyDependOnLibsWithTags: ['scope:shared', 'scope:customer'] },
  { sourceTag: 'scope:invoice', onlyDependOnLibsWithTags: ['scope:shared', 'scope:invoice'] },
  { sourceTag: 'scope:document', onlyDependOnLibsWithTags: ['scope:shared', 'scope:document'] },
  { sourceTag: 'scope:vat', onlyDependOnLibsWithTags: ['scope:shared', 'scope:vat'] },
  { sourceTag: 'scope:export', onlyDependOnLibsWithTags: ['scope:shared', 'scope:export'] },
  { sourceTag: 'scope:quota', onlyDependOnLibsWithTags: ['scope:shared', 'scope:quota'] },
  { sourceTag: 'scope:webhook', onlyDependOnLibsWithTags: ['scope:shared', 'scope:webhook'] },
  { sourceTag: 'scope:recurring', onlyDependOnLibsWithTags: ['scope:shared', 'scope:recurring'] },
  { sourceTag: 'scope:inbound', onlyDependOnLibsWithTags: ['scope:shared', 'scope:inbound'] },
  { sourceTag: 'scope:web', onlyDependOnLibsWithTags: ['scope:shared', 'scope:web'] },
  { sourceTag: 'scope:test', onlyDependOnLibsWithTags: ['scope:shared'] },
];

/** The kind constraints; `withDevtools` lets apps and platform libs import dev tools (test code, the launcher). */
const typeConstraints = (withDevtools) => {
  const dev = withDevtools ? ['type:devtool'] : [];
  return [
    { sourceTag: 'type:pure', onlyDependOnLibsWithTags: ['type:pure', ...dev] },
    { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:pure', 'type:platform', ...dev] },
    { sourceTag: 'type:devtool', onlyDependOnLibsWithTags: ['type:pure', 'type:platform', 'type:devtool'] },
    { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:pure', 'type:platform', ...dev] },
  ];
};

const boundaries = (withDevtools) => [
  'error',
  { enforceBuildableLibDependency: false, allow: [], depConstraints: [...typeConstraints(withDevtools), ...scopeConstraints] },
];

/** Where dev tools may be imported: test files and their helpers (testing/ and test/ folders), benchmarks, the launcher and the cross-service tests. */
export const devtoolAllowed = [
  '**/*.spec.ts',
  '**/testing/**/*.ts',
  '**/test/**/*.ts',
  '**/bench/**/*.ts',
  'apps/all/**/*.ts',
  'test/**/*.ts',
];

/** A service's main thread takes the e-invoice rules from `@inv/einvoice/rules` (see the rule below). */
const einvoiceBarrel = {
  name: '@inv/einvoice',
  allowTypeImports: true,
  message: "import from '@inv/einvoice/rules': the barrel also loads the XML writers, which only render workers need",
};

/**
 * invoice-service by feature (apps/invoice-service/src/invoices, receivables, mail, and platform for what they share):
 * a feature reaches another only through that feature's index.ts (its face), and never the service's entry points.
 */
const INVOICE_FEATURES = ['invoices', 'receivables', 'mail', 'platform'];
const featureFaces = {
  group: [...INVOICE_FEATURES.map((f) => `**/${f}/**`), '**/consumers/**', '**/workers/**', '**/invoice-service'],
  message: "invoice-service's features import one another only through the feature's index.ts (e.g. '../../receivables'), never its files",
};
const invoiceFeatureFiles = INVOICE_FEATURES.map((f) => `apps/invoice-service/src/${f}/**/*.ts`);

export default [
  { ignores: ['**/node_modules/**', '**/dist/**', '**/tmp/**', '**/*.cjs', '**/*.mjs', '**/*.js'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@nx/enforce-module-boundaries': boundaries(false),
    },
  },
  {
    files: devtoolAllowed,
    rules: { '@nx/enforce-module-boundaries': boundaries(true) },
  },
  {
    files: ['**/*.spec.ts', 'test/**/*.ts', '**/bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // A service's main thread takes the e-invoice rules from `@inv/einvoice/rules`: the barrel also loads the XML
    // writers (xmlbuilder2 and its DOM), which only document-service's render workers run (issue 16: idle RSS).
    files: ['apps/**/src/**/*.ts'],
    ignores: [
      '**/*.spec.ts',
      '**/testing/**',
      'apps/document-service/src/pdf/**',
      'apps/document-service/src/render/render-task.ts',
      'apps/document-service/src/render/render.worker.ts',
      'apps/document-service/src/usecases/render-invoice.ts',
      'apps/document-service/src/usecases/warm-up.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [einvoiceBarrel],
        },
      ],
    },
  },
  {
    // after the rule above, which it repeats for these files (a later block replaces a rule's options)
    files: invoiceFeatureFiles,
    ignores: ['**/*.spec.ts', '**/testing/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [einvoiceBarrel], patterns: [featureFaces] }] },
  },
  {
    files: invoiceFeatureFiles.map((f) => f.replace(/\*\.ts$/, '*.spec.ts')),
    rules: { 'no-restricted-imports': ['error', { patterns: [featureFaces] }] },
  },
  // formatting is prettier's (npm run format): rules that would disagree with it are off
  prettier,
];
