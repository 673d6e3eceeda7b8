import type { CompanyId, AccountMappingsUpdate } from '@inv/contracts';
import { eventMessage, givenFields } from '@inv/runtime';
import { invalidData } from '@inv/service-kit';
import { checkMappingUpdate, EXTRA_ACCOUNT_FIELDS, rowKey, type MappingRow, type MappingSettings } from '../domain/mapping-rules';
import type { ExportDeps } from '../support/deps';
import { getMappings } from './get-mappings';

/** PUT /acctexp/mappings: a batch of rows and settings; one bad entry answers 400 and nothing is saved. */
export async function saveMappings(deps: ExportDeps, companyId: CompanyId, input: AccountMappingsUpdate) {
  const config = await deps.config.get(companyId);
  const { rows, problems } = checkMappingUpdate(input, config.accountLength);
  if (problems.length)
    throw invalidData(`${problems.length} account mapping${problems.length > 1 ? 's are' : ' is'} invalid; nothing was saved`, problems);
  const saved = await deps.mappings.get(companyId);
  const merged = new Map<string, MappingRow>(
    (saved?.rows ?? []).map((r) => [rowKey(r.treatment, r.rate), { treatment: r.treatment, rate: r.rate, account: r.account }]),
  );
  for (const r of rows) merged.set(rowKey(r.treatment, r.rate), r);
  const settings: MappingSettings = {
    rows: [...merged.values()],
    receivablesAccount: input.receivables_account ?? saved?.receivablesAccount,
    debtorAccounts: input.debtor_accounts ?? saved?.debtorAccounts,
    collectiveDebtorAccount: input.collective_debtor_account ?? saved?.collectiveDebtorAccount,
  };
  for (const [key, field] of EXTRA_ACCOUNT_FIELDS) settings[key] = input[field] ?? saved?.[key];
  await deps.mappings.save(companyId, settings, deps.now());
  await deps.commit(async (_session, emit) =>
    emit(
      eventMessage('export.changed.v1', companyId, {
        action: 'mappings_saved',
        fields: givenFields(input),
      }),
    ),
  );
  return getMappings(deps, companyId);
}

/** POST /acctexp/mappings/reset: back to the defaults of the configured chart. */
export async function resetMappings(deps: ExportDeps, companyId: CompanyId) {
  // the reset and its announcement in one commit: a retry with the same Idempotency-Key whose first attempt committed
  // replays it (resets nothing a change made since has saved, announces nothing twice)
  await deps.commit(async (session, emit) => {
    await deps.mappings.reset(companyId, session);
    emit(eventMessage('export.changed.v1', companyId, { action: 'mappings_reset', fields: ['mappings'] }));
  });
  return getMappings(deps, companyId);
}
