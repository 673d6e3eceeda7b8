import { randomUUID } from 'node:crypto';
import { type CompanyId, MAX_EXPORT_YEARS, type ExportRequest } from '@inv/contracts';
import { commandMessage, eventMessage, givenFields } from '@inv/runtime';
import { invalidData, type FieldError } from '@inv/service-kit';
import type { ExportDeps } from '../support/deps';

const addYears = (iso: string, years: number) => `${Number(iso.slice(0, 4)) + years}${iso.slice(4)}`;

/**
 * POST /exports/job: checks the period and the configuration, then stores the job and its run command in
 * one transaction (the outbox relays the command; nothing accepted is lost if the process dies).
 */
export async function startExport(deps: ExportDeps, companyId: CompanyId, input: ExportRequest): Promise<string> {
  const errors: FieldError[] = [];
  if (input.end_date < input.start_date) errors.push({ path: 'end_date', message: `must not be before start_date (${input.start_date})` });
  else if (input.end_date >= addYears(input.start_date, MAX_EXPORT_YEARS))
    errors.push({ path: 'end_date', message: `the period may cover at most ${MAX_EXPORT_YEARS} years` });
  if (errors.length) throw invalidData('the export period is invalid', errors);

  const config = await deps.config.get(companyId);
  const missing: FieldError[] = [];
  if (config.consultantNumber === undefined)
    missing.push({ path: 'consultant_number', message: 'required for an export: set it with PUT /acctexp/config' });
  if (config.clientNumber === undefined)
    missing.push({ path: 'client_number', message: 'required for an export: set it with PUT /acctexp/config' });
  if (missing.length) {
    throw invalidData(
      `the accounting export configuration lacks ${missing.map((m) => m.path).join(' and ')}; set it with PUT /acctexp/config`,
      missing,
    );
  }

  const now = deps.now();
  // the job id the commit stored is the answer: a retry with the same Idempotency-Key whose first attempt committed
  // gets that job (its commit is replayed), never a job that was not stored
  return deps.commit(async (session, emit) => {
    const jobId = randomUUID();
    await deps.jobs.create(
      {
        _id: jobId,
        companyId,
        task: input.task,
        status: 'queued',
        progress: 0,
        startDate: input.start_date,
        endDate: input.end_date,
        includeMasterData: input.include_master_data,
        includeDocuments: input.include_documents,
        onlyNew: input.only_new,
        ...(input.exchange_rates && Object.keys(input.exchange_rates).length ? { exchangeRates: input.exchange_rates } : {}),
        attempts: 0,
        createdAt: now,
      },
      session,
    );
    emit(commandMessage('export.run-export.v1', companyId, { jobId }, `run-export-${jobId}`));
    emit(
      eventMessage('export.changed.v1', companyId, {
        action: 'started',
        jobId,
        fields: givenFields(input),
      }),
    );
    return jobId;
  });
}
