/** A problem document as a service answered it (read leniently). */
type Json = Record<string, unknown>;
import { texts, type Lang } from './i18n';
import { fieldText, PROBLEM_TEXTS, problemTextWithData, type ProblemForm } from './problem-texts';
import { RULE_TEXTS } from './problem-texts.rules';

export type { ProblemForm };

/**
 * What a refused action says in the page's language. The services answer problem+json in English (`code` or
 * `error_code`, `detail`/`message`, `errors[]` with `path`, `message` and maybe `suggestion`); the pages show the
 * German or English sentence of every code a service answers (problem-texts.ts), name the form field of a field error
 * with the format it expects, and fall back to a general sentence plus the service's own detail for a code that is
 * new to the web app.
 */
type Texts = {
  /** After the findings an answer lists, for those not said (beyond MAX_FINDINGS, or of a rule new to the web app). */
  more: string;
  field: string;
  suggestion: string;
  generic: string;
  detail: string;
};

const en: Texts = {
  more: 'Further findings in the check of the invoice: {count}.',
  field: 'Please check the field “{label}”. Expected: {expected}.',
  suggestion: 'Did you mean “{suggestion}”?',
  generic: 'The action was refused.',
  detail: 'The service says: {detail}',
};

const de: Texts = {
  more: 'Weitere Befunde in der Prüfung der Rechnung: {count}.',
  field: 'Bitte prüfen Sie das Feld „{label}“. Erwartet: {expected}.',
  suggestion: 'Meinten Sie „{suggestion}“?',
  generic: 'Die Aktion wurde abgelehnt.',
  detail: 'Der Dienst meldet: {detail}',
};

const TEXTS: Record<Lang, Texts> = { de, en };
/** Codes whose own sentence gives way to the sentences of the fields `errors` names (the form can mark each field). */
const FIELD_CODES = new Set(['UNKNOWN_FIELD', 'VALIDATION_ERROR', 'INVALID_DATA']);
/** Codes whose `errors` are the findings of the invoice check, each with its `rule` (problem-texts.rules.ts). */
const FINDING_CODES = new Set(['INVOICE_NOT_VALID', 'RECURRING_TEMPLATE_NOT_VALID']);
/** The most findings a message says; the check page lists them all. */
const MAX_FINDINGS = 5;
/** Field errors: when the form names none of their fields, their sentence leads the service's detail, which names them. */
const DETAIL_CODES = new Set(['VALIDATION_ERROR', 'INVALID_DATA']);
const fill = (s: string, v: Record<string, string>) => s.replace(/\{(\w+)\}/g, (_m, k: string) => v[k] ?? '');
const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);

/**
 * The codes whose own sentence says it all (problem-texts.spec.ts checks that every code a service answers has a
 * sentence in problem-texts.ts; VALIDATION_ERROR and INVALID_DATA add the service's detail where no form field is named).
 */
export const KNOWN_PROBLEM_CODES = Object.keys(PROBLEM_TEXTS.en).filter((c) => !DETAIL_CODES.has(c));

/**
 * The sentence a page shows for a service's refusal (`status` its HTTP status, `body` its problem document; `form`
 * the page's form where its fields mean something else than elsewhere, such as the `name` of a payment term).
 */
export function problemMessage(lang: Lang, status: number, body: Json, form?: ProblemForm): string {
  const t = TEXTS[lang];
  const codes: Record<string, string> = PROBLEM_TEXTS[lang];
  const code = str(body.code) ?? str(body.error_code) ?? '';
  const errors = Array.isArray(body.errors) ? (body.errors as unknown[]) : [];
  // field errors of the form's fields: each named as the form names it, with what it expects
  const fieldTexts = errors
    .map((e) => (e && typeof e === 'object' ? (e as Record<string, unknown>) : {}))
    .map((e) => {
      const f = fieldText(lang, str(e.path) ?? '', form);
      if (!f) return undefined;
      const suggestion = str(e.suggestion)?.slice(0, 100);
      return fill(t.field, f) + (suggestion ? ` ${fill(t.suggestion, { suggestion })}` : '');
    })
    .filter((x): x is string => x !== undefined);
  // the code's sentence, with the amounts, dates and counts the answer carries where the sentence names them
  const known = Object.hasOwn(codes, code) ? (problemTextWithData(lang, code, body) ?? codes[code]) : undefined;
  // a code with its own sentence says it all (WEBHOOK_URL_NOT_ALLOWED names what the url field needs), but for a
  // field error the fields the form knows say more
  if (known && FINDING_CODES.has(code) && errors.length) return [known, ...findingTexts(lang, errors, body.errors_total)].join(' ');
  if (known && !FIELD_CODES.has(code)) return known;
  if (fieldTexts.length) return [...new Set(fieldTexts)].join(' ');
  if (known && !DETAIL_CODES.has(code)) return known;
  if (status === 403) return texts[lang].forbidden;
  // a server-side failure without a code of its own (a 502 or 504 on the way): not a refusal, a moment's outage
  if (status >= 500 && !code) return codes.SERVICE_UNAVAILABLE ?? t.generic;
  // a field error of fields the form does not name, or a code new to the web app: the service's detail says more
  const detail = (str(body.detail) ?? str(body.message))?.slice(0, 300);
  const lead = known ?? t.generic;
  return detail ? `${lead} ${fill(t.detail, { detail })}` : lead;
}

/**
 * What the findings of an invoice check say, each rule once, at most MAX_FINDINGS, then how many more there are
 * (`errorsTotal`: all of them, where the answer listed only the first 20).
 */
function findingTexts(lang: Lang, errors: unknown[], errorsTotal: unknown): string[] {
  const rules: Record<string, string> = RULE_TEXTS[lang];
  const said = new Set<string>();
  let unsaid = 0;
  for (const e of errors.slice(0, 100)) {
    const rule = e && typeof e === 'object' ? str((e as Record<string, unknown>).rule) : undefined;
    const text = rule !== undefined && Object.hasOwn(rules, rule) ? rules[rule] : undefined;
    if (text && said.has(text)) continue;
    if (text && said.size < MAX_FINDINGS) said.add(text);
    else unsaid++;
  }
  const unlisted =
    typeof errorsTotal === 'number' && Number.isSafeInteger(errorsTotal) && errorsTotal > errors.length ? errorsTotal - errors.length : 0;
  const more = unsaid + unlisted;
  return [...said, ...(more ? [fill(TEXTS[lang].more, { count: String(more) })] : [])];
}
