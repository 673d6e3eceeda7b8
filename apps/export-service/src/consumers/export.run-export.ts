import type { CommandOf } from '@inv/runtime';
import type { ExportDeps } from '../support/deps';
import { runExport } from '../usecases/run-export';

/** export.run-export.v1: runs the job off the request path (redelivered after a restart, never lost). */
export const handleRunExport = (deps: ExportDeps, msg: CommandOf<'export.run-export.v1'>, attempt: number) =>
  runExport(deps, msg.companyId, msg.data.jobId, attempt);
