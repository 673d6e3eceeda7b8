import { execFile } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * The architecture rules are lint rules (eslint.config.mjs): pure libs import only pure libs, apps and
 * platform libs never import dev tools (test files, the launcher and test/ may). This runs ESLint's API
 * (in a plain Node process, lint-texts.mjs: jest's VM cannot load the ESM config) on small fixtures placed,
 * by file path, inside real projects, and proves a forbidden import fails while an allowed one passes.
 */
const root = resolve(__dirname, '../..');
const RULE = '@nx/enforce-module-boundaries';

interface Linted {
  filePath: string;
  messages: { ruleId: string | null; severity: number; message: string }[];
}

/** Lints every fixture in one ESLint process. */
function lintTexts(fixtures: { filePath: string; code: string }[]): Promise<Linted[]> {
  return new Promise((done, fail) => {
    const child = execFile(
      process.execPath,
      [resolve(__dirname, 'lint-texts.mjs')],
      { cwd: root, maxBuffer: 10 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) fail(new Error(`${err.message}\n${stderr}`));
        else done(JSON.parse(stdout) as Linted[]);
      },
    );
    child.stdin?.end(JSON.stringify(fixtures));
  });
}

/** The errors of the boundaries rule per fixture; a warning of the rule means it did not run, which must not pass as "allowed". */
function boundaryErrors(linted: Linted): string[] {
  const skipped = linted.messages.filter((m) => m.ruleId === RULE && m.severity === 1);
  if (skipped.length) throw new Error(`${RULE} did not run: ${skipped[0].message}`);
  return linted.messages.filter((m) => m.ruleId === RULE && m.severity === 2).map((m) => m.message);
}

const importing = (lib: string, name: string) => `import { ${name} } from '${lib}';\n\nexport const used = ${name};\n`;

const forbidden: [string, string, string, RegExp][] = [
  [
    'a platform lib importing a dev tool',
    'libs/runtime/src/lint-fixture.ts',
    importing('@inv/embedded-mongo', 'startEmbeddedMongo'),
    /type:platform/,
  ],
  [
    "a service's production code importing a dev tool",
    'apps/vat-service/src/lint-fixture.ts',
    importing('@inv/vies-simulator', 'startViesSimulator'),
    /type:app/,
  ],
  ['a pure lib importing a platform lib', 'libs/contracts/src/lint-fixture.ts', importing('@inv/bus', 'createBus'), /type:pure/],
  ['a pure lib importing a dev tool', 'libs/money/src/lint-fixture.ts', importing('@inv/testing', 'uniquePrefix'), /type:pure/],
  // every lib is scope:shared now (libs/einvoice is pure and shared since invoice-service checks format rules with it):
  // what stays forbidden is reaching into another service's code
  [
    'a service importing another service',
    'apps/invoice-service/src/lint-fixture.ts',
    importing('../../document-service/src/document-service', 'createDocumentService'),
    /cannot be imported by a relative or absolute path/,
  ],
];

const allowed: [string, string, string][] = [
  [
    'a test file of a service importing a dev tool',
    'apps/vat-service/src/lint-fixture.spec.ts',
    importing('@inv/vies-simulator', 'startViesSimulator'),
  ],
  ['the launcher importing a dev tool', 'apps/all/src/lint-fixture.ts', importing('@inv/embedded-mongo', 'startEmbeddedMongo')],
  ['a pure lib importing a pure lib', 'libs/einvoice/src/lint-fixture.ts', importing('@inv/money', 'computeTotals')],
  [
    'a service importing platform and pure libs',
    'apps/vat-service/src/lint-fixture.ts',
    `import { runMain } from '@inv/runtime';\nimport { VIES_FAULTS } from '@inv/contracts';\n\nexport const used = [runMain, VIES_FAULTS];\n`,
  ],
  ['a dev tool importing a platform lib', 'libs/testing/src/lint-fixture.ts', importing('@inv/bus', 'createBus')],
];

describe('lint enforces the module boundaries', () => {
  let results: Map<string, Linted>;
  const key = (file: string, code: string) => `${file}\n${code}`;

  beforeAll(async () => {
    const fixtures = [...forbidden, ...allowed].map(([, file, code]) => ({ filePath: resolve(root, file), code }));
    const linted = await lintTexts(fixtures);
    results = new Map(linted.map((l, i) => [key(fixtures[i].filePath, fixtures[i].code), l]));
  }, 180_000);

  it.each(forbidden)('refuses %s', (_what, file, code, message) => {
    const errors = boundaryErrors(results.get(key(resolve(root, file), code))!);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(message);
  });

  it.each(allowed)('allows %s', (_what, file, code) => {
    expect(boundaryErrors(results.get(key(resolve(root, file), code))!)).toEqual([]);
  });
});
