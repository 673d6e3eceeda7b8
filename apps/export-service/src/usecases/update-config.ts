import type { CompanyId, AcctExpConfigUpdate } from '@inv/contracts';
import { eventMessage, givenFields } from '@inv/runtime';
import { invalidData } from '@inv/service-kit';
import { mismatchedAccounts } from '../domain/mapping-rules';
import type { ExportSettings } from '../db/export-config';
import type { ExportDeps } from '../support/deps';

/** PUT /acctexp/config: only the fields sent change. A new account length must fit the saved mappings. */
export async function updateConfig(deps: ExportDeps, companyId: CompanyId, input: AcctExpConfigUpdate): Promise<ExportSettings> {
  const current = await deps.config.get(companyId);
  const next: ExportSettings = {
    consultantNumber: input.consultant_number ?? current.consultantNumber,
    clientNumber: input.client_number ?? current.clientNumber,
    chartOfAccounts: input.chart_of_accounts ?? current.chartOfAccounts,
    fiscalYearStartMonth: input.fiscal_year_start_month ?? current.fiscalYearStartMonth,
    accountLength: input.account_length ?? current.accountLength,
  };
  if (next.accountLength !== current.accountLength) {
    const bad = mismatchedAccounts(await deps.mappings.get(companyId), next.accountLength);
    if (bad.length) {
      throw invalidData(
        `saved account mappings do not fit account_length ${next.accountLength} (${bad.join('; ')}); save them with ${next.accountLength} digits or POST /acctexp/mappings/reset first`,
        [{ path: 'account_length', message: `saved mappings have another length: ${bad.join('; ')}` }],
      );
    }
  }
  await deps.config.save(companyId, next, deps.now());
  // for the audit log (the outbox relays it)
  await deps.commit(async (_session, emit) =>
    emit(
      eventMessage('export.changed.v1', companyId, {
        action: 'config_updated',
        fields: givenFields(input),
      }),
    ),
  );
  return next;
}
