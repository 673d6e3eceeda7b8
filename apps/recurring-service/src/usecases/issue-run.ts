import { FINALIZE_TASK, RECURRING_RUN_META_KEY, type RecurringTemplate } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { periodOf, runDate } from '../domain/schedule';
import type { RunDoc, RunOutcome } from '../db/runs';
import { scheduleKey, type LastRunDoc, type PausedReason, type ScheduleDoc } from '../db/schedules';
import type { RecurringDeps } from '../support/deps';
import type { z } from 'zod';
import { invoiceAnswers as answers } from '../support/invoice-answers';
import { InvoiceApiUnavailable, problemText, type ApiAnswer } from '../support/invoice-api';

/** Another replica took the run over (our lease expired): stop without writing. */
export class LeaseLost extends Error {}

/** What became of one attempt at the schedule's next run. */
export type RunResult = 'advanced' | 'paused' | 'busy' | 'retry';

interface Settled {
  outcome: RunOutcome;
  error?: string;
  /** Pause the schedule (the run stays open and continues when the schedule is resumed). */
  pause?: PausedReason;
  /** Forget the finalization job (it failed): a resumed run starts a new one on the same draft. */
  forgetJob?: boolean;
}

/** How long a job poll is held by invoice-service (its MAX_JOB_WAIT_SECONDS is 25). */
const JOB_POLL_SECONDS = 20;

/**
 * Issues the next run of a schedule, exactly once per (schedule, period):
 *
 * 1. claim: the run document's `_id` is company:schedule:period, so one insert wins among replicas; an open run
 *    whose lease expired (its replica died, or a transient fault left it for later) is taken over.
 * 2. the draft: POST /invoice/ with the run id in `meta.recurring_run`, and its id recorded right after. A run
 *    taken over without a recorded id first looks for a draft carrying its run id (the window between the
 *    creation and the record), so a crash there does not issue a second invoice. invoice-service's idempotency
 *    keys live in the gateway, which this direct call does not pass.
 * 3. the positions, counted: a resumed run adds only those the draft does not have yet.
 * 4. with auto_finalize, the finalization job (402: the schedule is paused, quota_exceeded) and its end; a refusal
 *    (422) or a failed job pauses it too (finalize_failed, the reason in last_run.error) instead of leaving a draft
 *    every period: resumed, the run brings the same draft up to date with the template and finalizes it again;
 *    with auto_send_email, the e-mail, unless the invoice already has one.
 * 5. the run is settled and the schedule advanced in one transaction.
 */
export async function issueRun(deps: RecurringDeps, schedule: ScheduleDoc, owner: string, signal?: AbortSignal): Promise<RunResult> {
  const { companyId, id: scheduleId } = schedule;
  const index = schedule.nextIndex;
  const period = periodOf(schedule.schedule, index);
  const now = deps.now();
  const lease = () => new Date(deps.now().getTime() + deps.leaseMs);
  const base = { companyId, scheduleId, index, period: period.start, periodEnd: period.end };
  const claimed = await deps.runs.claim(base, owner, now, lease());
  if (!claimed) {
    // held by another replica, or done already while this schedule copy was read before its advance
    const existing = await deps.runs.model.findById(`${companyId}:${scheduleId}:${period.start}`).lean<RunDoc>();
    if (existing?.state === 'done') {
      await advance(deps, schedule, existing, undefined);
      return 'advanced';
    }
    return 'busy';
  }
  const { run, resumed } = claimed;
  const api = <S extends z.ZodType>(method: 'GET' | 'POST' | 'PUT', path: string, answer: S, body?: unknown, extraTimeoutMs?: number) =>
    deps.invoiceApi(companyId, { method, path, answer, body, signal, extraTimeoutMs });
  const step = async (set: Partial<RunDoc>) => {
    if (!(await deps.runs.record(run, { ...set, leaseUntil: lease() }))) throw new LeaseLost(run._id);
  };
  const template = JSON.parse(schedule.templateJson) as RecurringTemplate;
  const runRef = `${scheduleId}:${period.start}`;
  const log = deps.logger.child({ companyId, recurringId: scheduleId, period: period.start });

  const attempt = async (): Promise<Settled> => {
    // 2. the draft
    if (run.invoiceId === null) {
      let invoiceId = resumed ? await findDraft(api, template.customer_id, runRef) : null;
      if (invoiceId === null) {
        const created = await api('POST', '/invoice/', answers.created, {
          customer_id: template.customer_id,
          invoice_format: template.invoice_format,
          tax_treatment_id: template.tax_treatment_id,
          ftl_template_id: template.ftl_template_id,
          buyer_reference: template.buyer_reference,
          note: template.note,
          benefit_period_start: period.start,
          benefit_period_end: period.end,
          meta: { ...template.meta, [RECURRING_RUN_META_KEY]: runRef },
        });
        if (!created.ok || created.status !== 201) return rejected(created, 'the draft');
        invoiceId = created.body.invoice_id;
      }
      await step({ invoiceId });
    }
    const invoiceId = run.invoiceId as number;

    // 3. the positions
    if (run.positionsAdded < template.positions.length) {
      let from = run.positionsAdded;
      if (resumed) {
        const current = await api('GET', `/invoice/${invoiceId}`, answers.draft);
        if (!current.ok || current.status !== 200) return rejected(current, 'the draft');
        from = Math.max(from, current.body.positions?.length ?? 0);
      }
      for (let i = from; i < template.positions.length; i++) {
        const added = await api('POST', `/invoice/${invoiceId}/positions`, answers.positionAdded, template.positions[i]);
        if (!added.ok || added.status !== 201) return rejected(added, `position ${i + 1}`);
        await step({ positionsAdded: i + 1 });
      }
    }
    if (!schedule.autoFinalize) return { outcome: 'draft_created' };

    // 4. finalization
    if (!run.finalized) {
      if (run.outcome === 'finalize_failed' && run.jobId === null) {
        // resumed after its finalization failed: the fix may be in the template (a buyer reference, the format)
        const synced = await api('PUT', `/invoice/${invoiceId}`, answers.updated, draftFields(template));
        if (!synced.ok && !(synced.status === 409 && synced.problem.code === 'INVOICE_NOT_DRAFT'))
          return finalizeFailed(`the draft could not be updated from the template: ${problemText(synced)}`);
      }
      const deadline = Date.now() + deps.jobWaitMs;
      for (;;) {
        if (run.jobId === null) {
          const job = await api('POST', `/invoice/${invoiceId}/job`, answers.jobQueued, { task: FINALIZE_TASK });
          if (!job.ok && job.status === 402) return { outcome: 'quota_exceeded', error: problemText(job), pause: 'quota_exceeded' };
          if (!job.ok && job.status === 409 && job.problem.code === 'INVOICE_NOT_DRAFT') {
            await step({ finalized: true });
            break;
          }
          if (!job.ok && job.status === 409 && job.problem.code === 'JOB_IN_PROGRESS') {
            // a job this run started before a crash, its id not recorded: ask again until it has ended
            if (Date.now() > deadline) throw new InvoiceApiUnavailable('finalization still in progress');
            await sleep(1000, signal);
            await step({});
            continue;
          }
          if (!job.ok) return finalizeFailed(problemText(job));
          await step({ jobId: job.body.job_id });
        }
        const polled = await api(
          'GET',
          `/invoice/${invoiceId}/job/${run.jobId}?wait=${JOB_POLL_SECONDS}`,
          answers.job,
          undefined,
          JOB_POLL_SECONDS * 1000,
        );
        if (!polled.ok) return finalizeFailed(problemText(polled));
        if (polled.body.status === 'finished') {
          await step({ finalized: true });
          break;
        }
        if (polled.body.status === 'failed')
          return finalizeFailed(`the finalization job failed: ${polled.body.error_message ?? 'no reason given'}`);
        if (Date.now() > deadline) throw new InvoiceApiUnavailable('finalization job still running');
        await step({});
      }
    }
    if (!schedule.autoSendEmail || !template.email) return { outcome: 'finalized' };

    // e-mail: at most one per run (a resumed run first looks whether it sent one)
    if (run.emailId === null) {
      if (resumed) {
        const sent = await api('GET', `/invoice/${invoiceId}/emails`, answers.emails);
        const first = sent.ok ? sent.body.emails[0] : undefined;
        if (first?.id) await step({ emailId: first.id });
      }
      if (run.emailId === null) {
        const mail = await api('POST', `/invoice/${invoiceId}/send_email`, answers.emailQueued, template.email);
        if (!mail.ok || mail.status !== 202) return { outcome: 'finalized', error: `e-mail not sent: ${problemText(mail)}` };
        await step({ emailId: mail.body.email_id });
      }
    }
    return { outcome: 'sent' };
  };

  let settled: Settled;
  try {
    settled = await attempt();
  } catch (err) {
    if (err instanceof LeaseLost) return 'busy';
    if (signal?.aborted) {
      // stopping: the lease stays, as after a crash; any replica resumes the run once it expires
      return 'retry';
    }
    log.warn({ err }, 'recurring run interrupted; it continues at a later tick');
    await deps.runs.release(run, deps.now(), { error: String((err as Error).message).slice(0, 500) });
    return 'retry';
  }

  if (settled.pause) {
    const outcome = settled.outcome;
    const pausedReason = settled.pause;
    await deps.commit(async (session, emit) => {
      const r = await deps.runs.model.updateOne(
        { _id: run._id, owner: run.owner, state: 'open' },
        { $set: { outcome, error: settled.error ?? null, leaseUntil: deps.now(), ...(settled.forgetJob ? { jobId: null } : {}) } },
        { session },
      );
      if (r.matchedCount !== 1) throw new LeaseLost(run._id);
      await deps.schedules.model.updateOne(
        { _id: scheduleKey(companyId, scheduleId), status: 'active' },
        {
          $set: { status: 'paused', pausedReason: settled.pause, lastRun: lastRunOf(run, outcome, settled.error), updatedAt: deps.now() },
          $inc: { version: 1 },
        },
        { session },
      );
      emit(runFinished(run, outcome, settled.error, pausedReason, 'paused'));
    });
    log.info({ reason: settled.pause }, 'recurring invoice paused');
    return 'paused';
  }
  try {
    await advance(deps, schedule, run, settled);
  } catch (err) {
    if (err instanceof LeaseLost) return 'busy';
    throw err;
  }
  log.info({ invoiceId: run.invoiceId, outcome: settled.outcome }, 'recurring run done');
  return 'advanced';
}

/**
 * The announcement of a run's end (webhooks: recurring_invoice.run_finished). Its id names the company, schedule, period
 * and stage, so a settle that is retried after a lost lease or a redelivery announces it once.
 */
function runFinished(
  run: RunDoc,
  outcome: RunOutcome,
  error: string | undefined,
  pausedReason: PausedReason | undefined,
  stage: 'paused' | 'done',
) {
  return eventMessage(
    'recurring-invoice.run-finished.v1',
    run.companyId,
    {
      recurringId: run.scheduleId,
      periodStart: run.period,
      periodEnd: run.periodEnd,
      invoiceId: run.invoiceId,
      outcome,
      ...(pausedReason && pausedReason !== 'user' ? { pausedReason } : {}),
      ...(error ? { error } : {}),
    },
    `recurring-run-${run.companyId}-${run.scheduleId}-${run.period}-${stage}-${outcome}`,
  );
}

/**
 * Finalization refused (422: what GET /invoice/{id}/validate reports) or its job failed: the schedule pauses with the
 * reason, the run stays open with its draft and forgets the job, so a resume finalizes that draft again (no second
 * draft for the period, and none for the next periods while the cause stays).
 */
function finalizeFailed(error: string): Settled {
  return { outcome: 'finalize_failed', error: error.slice(0, 500), pause: 'finalize_failed', forgetJob: true };
}

/** The invoice fields of the template a draft is brought up to date with (the ones it sets; the others stay). */
function draftFields(template: RecurringTemplate) {
  return {
    invoice_format: template.invoice_format,
    tax_treatment_id: template.tax_treatment_id,
    ftl_template_id: template.ftl_template_id,
    buyer_reference: template.buyer_reference,
    note: template.note,
  };
}

/** An answer refusing the template's data: the schedule pauses until the template is fixed (the run stays open). */
function rejected(answer: ApiAnswer, what: string): Settled {
  return { outcome: 'failed', error: `${what} was refused: ${problemText(answer)}`, pause: 'invoice_rejected' };
}

function lastRunOf(run: RunDoc, outcome: RunOutcome, error: string | undefined): LastRunDoc {
  return { date: run.period, periodStart: run.period, periodEnd: run.periodEnd, invoiceId: run.invoiceId, outcome, error: error ?? null };
}

/**
 * Settles the run (when `settled` is given) and moves the schedule past it, in one transaction. The schedule
 * moves only if it still points at this run, so neither a replica with a stale copy nor a concurrent change
 * moves it twice.
 */
async function advance(deps: RecurringDeps, schedule: ScheduleDoc, run: RunDoc, settled: Settled | undefined) {
  const next = run.index + 1;
  const nextRunDate = runDate(schedule.schedule, next);
  await deps.commit(async (session, emit) => {
    if (settled) {
      const r = await deps.runs.finish(
        run,
        { state: 'done', outcome: settled.outcome, error: settled.error ?? null, finishedAt: deps.now() },
        session,
      );
      if (r.matchedCount !== 1) throw new LeaseLost(run._id);
      emit(runFinished(run, settled.outcome, settled.error, undefined, 'done'));
    }
    const set: Partial<ScheduleDoc> = {
      nextIndex: next,
      nextRunDate,
      billedUntil: run.periodEnd,
      updatedAt: deps.now(),
      ...(settled ? { lastRun: lastRunOf(run, settled.outcome, settled.error) } : {}),
      ...(nextRunDate === null ? { status: 'ended' as const, pausedReason: null } : {}),
    };
    await deps.schedules.model.updateOne(
      { _id: scheduleKey(run.companyId, run.scheduleId), nextIndex: run.index },
      { $set: set, $inc: { version: 1 } },
      { session },
    );
  });
}

/** The draft a run created before it could record its id: the newest drafts of the customer, by run id. */
async function findDraft(
  api: (method: 'GET', path: string, answer: typeof answers.drafts) => Promise<ApiAnswer<z.output<typeof answers.drafts>>>,
  customerId: number,
  runRef: string,
): Promise<number | null> {
  const list = await api('GET', `/invoice/?status=DRAFT&customer_id=${customerId}&sort=-created&limit=100`, answers.drafts);
  if (!list.ok) throw new InvoiceApiUnavailable(`listing drafts: ${problemText(list)}`);
  for (const inv of list.body.invoices) {
    if (inv.meta && typeof inv.meta === 'object' && inv.meta[RECURRING_RUN_META_KEY] === runRef) return inv.id;
  }
  return null;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });
