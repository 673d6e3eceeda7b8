/**
 * PDF/A-3 Factur-X rendering benchmark: ours (pdfkit) against @e-invoice-eu/core's generate().
 *
 *   npx tsx apps/document-service/bench/render.bench.ts [N] [--compare=K]
 *
 * N invoices of 10 lines (default 200) are rendered in one process; --compare limits how many of them
 * @e-invoice-eu/core renders (default: all N).
 *
 * This file only makes sure the workspace path aliases (@inv/...) resolve: tsx reads tsconfig.json
 * from the working directory, and the repository root has only tsconfig.base.json, so when there is
 * no tsconfig.json there the benchmark re-runs itself with TSX_TSCONFIG_PATH pointing at this app's.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

if (!existsSync(join(process.cwd(), 'tsconfig.json')) && !process.env.TSX_TSCONFIG_PATH) {
  const child = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, TSX_TSCONFIG_PATH: join(__dirname, '..', 'tsconfig.json') },
  });
  process.exit(child.status ?? 1);
} else {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./render-bench-main') as typeof import('./render-bench-main')).main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
