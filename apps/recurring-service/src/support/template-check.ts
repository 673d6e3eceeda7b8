import type { CompanyId, RecurringTemplate } from '@inv/contracts';
import { AppError, ServiceAnswerInvalid } from '@inv/service-kit';
import type { Period } from '../domain/schedule';
import { templateFindings, templatePathOf } from '../domain/template';
import type { RecurringDeps } from './deps';
import { invoiceAnswers } from './invoice-answers';
import { InvoiceApiUnavailable, problemText } from './invoice-api';

/**
 * VAT check states that settle by themselves (a check under way, VIES not answering): a finding about them does not
 * refuse a template, whose invoices are finalized later; a run whose finalization still meets it pauses
 * (finalize_failed) and says so. A VAT ID found invalid refuses it, as finalization would.
 */
const SETTLING_VAT_STATES = new Set(['pending', 'unavailable', 'not_checked']);

/**
 * Checks a template as an invoice before a schedule is saved with it: invoice-service's POST /invoice/validate (the
 * rules of GET /invoice/{id}/validate, which finalization applies) on the draft a run would create for `period`,
 * over the signed path the runs take (outside the company's rate-limit window: the save request was counted by the
 * gateway). Nothing is saved unchecked: an invoice API that cannot answer now is a 503.
 *
 * - the check finds what finalization would refuse: 422 RECURRING_TEMPLATE_NOT_VALID, each finding named where the
 *   template sets it (`template.buyer_reference`), else as the invoice API names it (`company.…`, `customer.…`);
 * - the invoice API refuses a field of the template itself (an unknown product or layout): 400 naming it;
 * - unreachable, 5xx, 429 or an answer this service does not understand: 503 SERVICE_UNAVAILABLE.
 */
export async function checkTemplate(deps: RecurringDeps, companyId: CompanyId, template: RecurringTemplate, period: Period | null) {
  let answer;
  try {
    answer = await deps.invoiceApi(companyId, {
      method: 'POST',
      path: '/invoice/validate',
      answer: invoiceAnswers.validation,
      ownRequest: true,
      body: {
        customer_id: template.customer_id,
        invoice_format: template.invoice_format,
        tax_treatment_id: template.tax_treatment_id,
        ftl_template_id: template.ftl_template_id,
        buyer_reference: template.buyer_reference,
        note: template.note,
        ...(period ? { benefit_period_start: period.start, benefit_period_end: period.end } : {}),
        positions: template.positions,
      },
    });
  } catch (err) {
    if (!(err instanceof InvoiceApiUnavailable || err instanceof ServiceAnswerInvalid)) throw err;
    throw unavailable(companyId, deps, err.message);
  }
  if (answer.ok) {
    const vatStatus = answer.body.vat_check.status;
    const blocking = answer.body.errors.filter((e) => !(e.rule === 'VAT_OVERRIDE_REQUIRED' && SETTLING_VAT_STATES.has(vatStatus)));
    if (blocking.length === 0) return;
    const errors = templateFindings(blocking);
    throw new AppError(
      'unprocessable',
      `the template would not pass finalization: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`,
      {
        code: 'RECURRING_TEMPLATE_NOT_VALID',
        errors,
      },
    );
  }
  const refused = answer.problem.errors ?? [];
  // a 400 names a position by its index (positions[1].product_id), a 422 by the checked draft's position id (1, 2, …)
  const byIndex = (i: number) => i;
  const named = refused.map((e) => ({
    path: templatePathOf(String(e.path ?? e.field ?? ''), answer.status === 400 ? byIndex : undefined),
    message: String(e.message ?? ''),
  }));
  if (answer.status === 400 && named.length)
    throw new AppError('invalid_data', `invalid template: ${named.map((e) => `${e.path}: ${e.message}`).join('; ')}`, {
      code: 'VALIDATION_ERROR',
      errors: named,
    });
  if (answer.status === 409 || answer.status === 422)
    throw new AppError('unprocessable', `the template would not pass finalization: ${problemText(answer)}`, {
      code: 'RECURRING_TEMPLATE_NOT_VALID',
      errors: named.length ? named : [{ path: 'template', message: answer.problem.detail ?? answer.problem.message ?? '' }],
    });
  throw unavailable(companyId, deps, problemText(answer));
}

function unavailable(companyId: CompanyId, deps: RecurringDeps, why: string) {
  deps.logger.warn({ companyId, why }, 'template check by the invoice API failed; nothing saved');
  return new AppError('unavailable', 'the invoice service could not check the template now; nothing was saved: send it again shortly', {
    code: 'SERVICE_UNAVAILABLE',
  });
}
