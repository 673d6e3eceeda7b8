import type { CompanyId, InvoiceDraftCheck } from '@inv/contracts';
import { AppError } from '@inv/service-kit';
import { invoiceKey, type InvoiceDoc, type PositionDoc } from '../db/invoices';
import type { InvoicesDeps } from '../deps';
import { assertTemplate, newDraftFields } from './draft-rules';
import { assertComputable, assertPositionAmounts, toPosition } from './position-store';
import { withProduct } from './add-position';
import { validateInvoice } from './validate-invoice';

/** The number a draft would get at creation is not taken: the rules only need one to be there (BR-02). */
const UNNUMBERED = 'RE-UNNUMBERED';

/**
 * POST /invoice/validate: what GET /invoice/{id}/validate would answer for the draft POST /invoice/ and
 * POST /invoice/{id}/positions would make of this request, without making it (no draft, no number, no event).
 * The draft is built by the steps creation and adding positions take (the customer's buyer reference and template
 * as defaults, products filling positions, the same amount checks) and checked by validateInvoice, the rules
 * finalization applies; recurring-service checks a template with it before it saves a schedule.
 */
export async function validateDraft(deps: InvoicesDeps, companyId: CompanyId, input: InvoiceDraftCheck) {
  // an unknown customer is a finding (CUSTOMER_EXISTS on customer_id), as for a stored draft
  const customer = await deps.peers.billingSnapshot(companyId, input.customer_id);
  await assertTemplate(deps, companyId, input.ftl_template_id);
  const positions: PositionDoc[] = [];
  for (const [i, given] of input.positions.entries()) {
    // the position's own problems name it: positions[2].quantity
    await underPosition(i, async () => {
      const p = toPosition(i + 1, await withProduct(deps, companyId, given), input.tax_treatment_id);
      if (given.product_id !== undefined) p.productId = given.product_id;
      assertPositionAmounts(p, given.single_net_amount);
      positions.push(p);
    });
  }
  assertComputable(positions);
  const now = deps.now();
  const draft: InvoiceDoc = {
    _id: invoiceKey(companyId, 0),
    id: 0,
    companyId,
    number: UNNUMBERED,
    ...newDraftFields(input, customer, now),
    positions,
  };
  return validateInvoice(deps, draft, now.toISOString().slice(0, 10));
}

/** Runs a position's checks with the paths of their 400 under `positions[i].`. */
async function underPosition(index: number, check: () => Promise<void>) {
  try {
    await check();
  } catch (err) {
    if (!(err instanceof AppError) || err.kind !== 'invalid_data') throw err;
    const errors = (err.options.errors ?? [{ path: '', message: err.message }]).map((e) => ({
      ...e,
      path: `positions[${index}]${e.path ? `.${e.path}` : ''}`,
    }));
    throw new AppError('invalid_data', `positions[${index}]: ${err.message}`, { ...err.options, errors });
  }
}
