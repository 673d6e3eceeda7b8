import { POSITION_DECIMAL_FIELDS, type RecurringTemplate, type RecurringTemplateView } from '@inv/contracts';
import { toDecimal, toJsonNumber } from '@inv/money';

/**
 * The template as stored and as answered. It is stored as the request parsed it (RecurringTemplate's output, JSON
 * text in `templateJson`): the positions' decimal fields as exact decimal text ("1200.00", "0.19"), as in every
 * schedule saved so far. Answers write them as JSON numbers, as every other resource does (`1200`, `0.19`): the
 * conversion happens on read (no migration of stored documents), so old and new documents answer alike, and the
 * runs send the stored text, which the invoice API takes as it is.
 */

/** A stored decimal as a JSON number: exact (toJsonNumber), else the nearest double; what is no number stays as it was. */
function asNumber(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return toJsonNumber(value.trim());
  } catch {
    try {
      const n = toDecimal(value.trim()).toNumber();
      return Number.isFinite(n) ? n : value;
    } catch {
      return value;
    }
  }
}

/** The stored template as answered (GET, list, create and update answers alike): amounts as JSON numbers. */
export function templateView(templateJson: string): RecurringTemplateView {
  const stored = JSON.parse(templateJson) as RecurringTemplate;
  const positions = (Array.isArray(stored.positions) ? stored.positions : []).map((p) => {
    const out: Record<string, unknown> = { ...p };
    for (const field of POSITION_DECIMAL_FIELDS) if (field in out) out[field] = asNumber(out[field]);
    return out;
  });
  return { ...stored, positions } as RecurringTemplateView;
}

/** One finding of the invoice API's check, as the 422 of a refused save lists it. */
export interface TemplateFinding {
  path: string;
  field: string;
  rule: string;
  message: string;
}

/** The invoice's snapshot names (lines[i].…) of the position fields a template sets. */
const LINE_FIELDS: Record<string, string> = {
  quantity: 'quantity',
  unitCode: 'unit_id',
  name: 'title',
  unitPrice: 'unit_net_amount',
  'vat.category': 'tax_treatment_id',
};

/**
 * Where a finding of POST /invoice/validate (named as GET /invoice/{id}/validate and finalization name it) is fixed
 * in a recurring invoice: under `template.` when the template sets the field (buyerReference is the template's
 * buyer_reference, positions[2] and lines[2] its third position), else as the invoice API named it (customer.…,
 * buyer.…, company.…: fixed in the customer or the company profile).
 */
export function templatePathOf(field: string, positionIndexOfId: (id: number) => number = (id) => id - 1): string {
  if (field === 'buyerReference' || field === 'buyer_reference') return 'template.buyer_reference';
  if (['customer_id', 'invoice_format', 'tax_treatment_id', 'ftl_template_id', 'note', 'positions'].includes(field))
    return `template.${field}`;
  const line = /^lines\[(\d+)\](?:\.(.+))?$/.exec(field);
  if (line) {
    const sub = line[2] === undefined ? '' : `.${LINE_FIELDS[line[2]] ?? line[2]}`;
    return `template.positions[${line[1]}]${sub}`;
  }
  // positions[<id>] of the checked draft: its positions are numbered 1, 2, … in the template's order
  const position = /^positions\[(\d+)\](.*)$/.exec(field);
  if (position) return `template.positions[${positionIndexOfId(Number(position[1]))}]${position[2]}`;
  return field;
}

/** What to do about a finding, where the invoice API's message does not say it for a template. */
function hint(path: string): string {
  if (path === 'template.buyer_reference')
    return " Set template.buyer_reference (the Leitweg-ID for public buyers), or the customer's buyer_reference (PUT /customer/{id}), which new invoices take.";
  return '';
}

/** The invoice API's findings as the errors of a refused save. */
export function templateFindings(errors: { field: string; rule: string; message: string }[]): TemplateFinding[] {
  return errors.map((e) => {
    const path = templatePathOf(e.field);
    return { path, field: path, rule: e.rule, message: `${e.message}${hint(path)}` };
  });
}
