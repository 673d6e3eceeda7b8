/** A problem document as a service answered it (read leniently). */
type Json = Record<string, unknown>;
import { texts, type Lang } from './i18n';
import { fieldText, PROBLEM_TEXTS, problemTextWithData, type ProblemForm } from './problem-texts';

export type { ProblemForm };

/**
 * What a refused action says in the page's language. The services answer problem+json in English (`code` or
 * `error_code`, `detail`/`message`, `errors[]` with `path`, `message` and maybe `suggestion`); the pages show the
 * German or English sentence of every code a service answers (problem-texts.ts), name the form field of a field error
 * with the format it expects, and fall back to a general sentence plus the service's own detail for a code that is
 * new to the web app.
 */
type Texts = {
  field: string;
  suggestion: string;
  generic: string;
  detail: string;
};

const en: Texts = {
  field: 'Please check the field “{label}”. Expected: {expected}.',
  suggestion: 'Did you mean “{suggestion}”?',
  generic: 'The action was refused.',
  detail: 'The service says: {detail}',
};

const de: Texts = {
  field: 'Bitte prüfen Sie das Feld „{label}“. Erwartet: {expected}.',
  suggestion: 'Meinten Sie „{suggestion}“?',
  generic: 'Die Aktion wurde abgelehnt.',
  detail: 'Der Dienst meldet: {detail}',
};

const TEXTS: Record<Lang, Texts> = { de, en };
/** Codes whose own sentence gives way to the sentences of the fields `errors` names (the form can mark each field). */
const FIELD_CODES = new Set(['UNKNOWN_FIELD', 'VALIDATION_ERROR', 'INVALID_DATA']);
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
  if (known && !FIELD_CODES.has(code)) return known;
  if (fieldTexts.length) return [...new Set(fieldTexts)].join(' ');
  if (known && !DETAIL_CODES.has(code)) return known;
  if (status === 403) return texts[lang].forbidden;
  // a field error of fields the form does not name, or a code new to the web app: the service's detail says more
  const detail = (str(body.detail) ?? str(body.message))?.slice(0, 300);
  const lead = known ?? t.generic;
  return detail ? `${lead} ${fill(t.detail, { detail })}` : lead;
}
