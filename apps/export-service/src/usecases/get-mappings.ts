import type { CompanyId } from '@inv/contracts';
import { effectiveMappings, type EffectiveMappings } from '../domain/mapping-rules';
import type { ExportDeps } from '../support/deps';

/** The account assignments in force: the configured chart's defaults overlaid with the saved rows. */
export async function getMappings(deps: ExportDeps, companyId: CompanyId): Promise<EffectiveMappings> {
  const [config, saved] = await Promise.all([deps.config.get(companyId), deps.mappings.get(companyId)]);
  return effectiveMappings(config.chartOfAccounts, config.accountLength, saved);
}
