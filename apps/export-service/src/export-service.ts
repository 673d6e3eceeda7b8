import { createServiceRuntime } from '@inv/runtime';
import type { ExportConfig } from './config';
import { exportConfigRepo } from './db/export-config';
import { configRoutes } from './http/config.routes';

/** Accounting export (DATEV EXTF). This slice: company-wide export configuration; exports follow. */
export async function createExportService(config: ExportConfig) {
  const rt = await createServiceRuntime({ service: 'export-service', database: 'invoicing_export', port: config.PORT, env: config });
  rt.app.use(configRoutes(exportConfigRepo(rt.conn)));
  return { runtime: rt, start: () => rt.start(), stop: () => rt.stop() };
}
