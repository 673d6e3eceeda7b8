import type { z } from 'zod';
import { editDistance } from './unknown-fields';

/**
 * What a field error says: the field is named by its path, this module writes the text. zod's own wording
 * ("Invalid input: expected number, received NaN", "Invalid ISO date", "Invalid input") is replaced by one that
 * says what is expected and, where the mistake is a common one, what was probably meant (`suggestion`, also in
 * the text). Messages a contract writes itself (lower case: "required for B2B customers") are kept as they are;
 * a contract can carry a suggestion in its issue's `params.suggestion`.
 */

type Issue = z.core.$ZodIssue;

export interface IssueText {
  message: string;
  /** The value the client most likely meant (a unit code, a date in YYYY-MM-DD, 0.19 for 19). */
  suggestion?: string | number;
}

/** The value at `path` inside `input` (undefined when a step does not exist). */
export function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** zod's own messages start with a capital ("Invalid …", "Too big: …"); the contracts' own are lower case. */
const isZodDefault = (message: string) => /^(Invalid|Too (big|small)|Expected|Unrecognized|Input not instance)/.test(message);

/** How a received value is named in a message: strings quoted and cut, others by their JSON type. */
function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return value.length > 40 ? `"${value.slice(0, 40)}…"` : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return 'an array';
  return 'an object';
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

const TYPE_NAMES: Record<string, string> = {
  number: 'number',
  int: 'integer',
  string: 'string',
  boolean: 'boolean (true or false)',
  array: 'array',
  object: 'object',
  date: 'date',
  bigint: 'integer',
};

/** Passed as `input` when the parsed input is not at hand (a ZodError thrown elsewhere): the texts then rely on zod's issue. */
export const INPUT_UNKNOWN: unique symbol = Symbol('input unknown');

/**
 * The text of one zod issue; `input` is the whole request part that was parsed (for the value the issue is about),
 * or INPUT_UNKNOWN.
 */
export function issueText(issue: Issue, input: unknown): IssueText {
  if (input === INPUT_UNKNOWN) return withoutInput(issue);
  const value = valueAt(input, issue.path);
  const own = (issue as { params?: { suggestion?: unknown } }).params?.suggestion;
  if (!isZodDefault(issue.message)) {
    return typeof own === 'string' || typeof own === 'number' ? { message: issue.message, suggestion: own } : { message: issue.message };
  }
  switch (issue.code) {
    case 'invalid_type': {
      // a coerced field (z.coerce.number) receives NaN for a missing value: absent in the input is "required"
      if (value === undefined || /received undefined$/.test(issue.message)) return { message: 'required' };
      const expected = TYPE_NAMES[issue.expected] ?? issue.expected;
      if (typeof value === 'string' && (issue.expected === 'number' || issue.expected === 'int') && value.trim() === '')
        return { message: `must be ${article(expected)}; an empty string is not one` };
      return { message: `must be ${article(expected)}, not ${shown(value)}` };
    }
    case 'invalid_format':
      if (issue.format === 'date') return dateText(value);
      if (issue.format === 'datetime') return { message: 'must be a date and time in ISO 8601 (2026-11-29T10:15:00Z)' };
      if (issue.format === 'email') return { message: 'must be an e-mail address (name@example.com)' };
      if (issue.format === 'uuid' || issue.format === 'guid') return { message: 'must be a UUID (8-4-4-4-12 hexadecimal digits)' };
      if (issue.format === 'url') return { message: 'must be a URL (https://…)' };
      if (issue.format === 'regex') return { message: `has the wrong format${value === undefined ? '' : `: ${shown(value)}`}` };
      return { message: `must be in the ${issue.format} format` };
    case 'invalid_value':
      return oneOfText(issue.values, value);
    case 'invalid_union': {
      const values = unionValues(issue);
      if (values) return oneOfText(values, value);
      const discriminated = issue as unknown as { options?: unknown[]; discriminator?: string };
      if (discriminated.options?.length) return oneOfText(discriminated.options, value);
      return { message: `has an unexpected value or type${value === undefined ? '' : `: ${shown(value)}`}` };
    }
    case 'too_big':
      return { message: boundText('at most', issue.origin, issue.maximum, issue.inclusive) };
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return { message: 'must not be empty' };
      if (issue.origin === 'array' && Number(issue.minimum) === 1) return { message: 'must list at least one entry' };
      return { message: boundText('at least', issue.origin, issue.minimum, issue.inclusive) };
    case 'not_multiple_of':
      return { message: `must be a multiple of ${String(issue.divisor)}` };
    case 'unrecognized_keys':
      return { message: `unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}` };
    default:
      return { message: issue.message };
  }
}

function withoutInput(issue: Issue): IssueText {
  if (issue.code === 'invalid_type') {
    if (/received undefined$/.test(issue.message)) return { message: 'required' };
    return { message: `must be ${article(TYPE_NAMES[issue.expected] ?? issue.expected)}` };
  }
  if (issue.code === 'invalid_value') return { message: listOf(issue.values) };
  if (issue.code === 'invalid_union' && unionValues(issue)) return { message: listOf(unionValues(issue)!) };
  if (issue.code === 'invalid_format' && issue.format === 'date') return { message: DATE_FORMAT };
  // the other texts do not name the value
  return issueText(issue, {});
}

function boundText(word: 'at most' | 'at least', origin: string, bound: number | bigint, inclusive?: boolean): string {
  const n = Number(bound);
  switch (origin) {
    case 'string':
      return `must have ${word} ${n} character${n === 1 ? '' : 's'}`;
    case 'array':
    case 'set':
      return `must have ${word} ${n} entr${n === 1 ? 'y' : 'ies'}`;
    case 'file':
      return `must have ${word} ${n} bytes`;
    default:
      if (inclusive === false)
        return word === 'at most' ? `must be less than ${n}` : n === 0 ? 'must be positive' : `must be more than ${n}`;
      return `must be ${word} ${n}`;
  }
}

/** Every option of a union whose branches are all enums or literals (`["invoice.paid", …] | "*"`). */
function unionValues(issue: Extract<Issue, { code: 'invalid_union' }>): unknown[] | undefined {
  if (!issue.errors.length) return undefined;
  const values: unknown[] = [];
  for (const branch of issue.errors) {
    if (branch.length !== 1) return undefined;
    const only = branch[0]!;
    if (only.code !== 'invalid_value' || only.path.length) return undefined;
    values.push(...only.values);
  }
  return values;
}

/** At most this many allowed values are listed in a message (all of them up to here). */
const MAX_LISTED_VALUES = 30;

/** "must be one of …" with the closest option where one is close ("german" -> "German", "invoice.paied" -> …). */
function listOf(values: readonly unknown[]): string {
  const listed = values.slice(0, MAX_LISTED_VALUES).map((v) => JSON.stringify(v));
  const more = values.length > MAX_LISTED_VALUES ? `, and ${values.length - MAX_LISTED_VALUES} more` : '';
  return values.length === 1 ? `must be ${listed[0]}` : `must be one of ${listed.join(', ')}${more}`;
}

function oneOfText(values: readonly unknown[], value: unknown): IssueText {
  const list = listOf(values);
  if (value === undefined) return { message: `required: ${list.replace(/^must be /, '')}` };
  const close = closestOption(values, value);
  return close === undefined
    ? { message: `${list}, not ${shown(value)}` }
    : { message: `${list}, not ${shown(value)}; did you mean ${JSON.stringify(close)}?`, suggestion: close as string | number };
}

function closestOption(values: readonly unknown[], value: unknown): unknown {
  if (typeof value !== 'string' || value.length > 100) return undefined;
  const norm = (s: string) => s.toLowerCase().replace(/[\s_\-.]/g, '');
  const v = norm(value);
  const strings = values.filter((o): o is string => typeof o === 'string');
  const same = strings.find((o) => norm(o) === v);
  if (same !== undefined) return same;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const o of strings) {
    const d = editDistance(v, norm(o));
    if (d < bestDistance) [best, bestDistance] = [o, d];
  }
  const allowed = v.length < 3 ? 0 : Math.max(1, Math.min(3, Math.floor(v.length / 4)));
  return best !== undefined && bestDistance <= allowed ? best : undefined;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A real calendar date as YYYY-MM-DD, or undefined (2026-02-30 is none). */
function calendarDate(y: number, m: number, d: number): string | undefined {
  if (!(y >= 1000 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= 31)) return undefined;
  const t = new Date(Date.UTC(y, m - 1, d));
  if (t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return undefined;
  return `${y}-${pad(m)}-${pad(d)}`;
}

const DATE_FORMAT = 'must be a date in the format YYYY-MM-DD (ISO 8601, e.g. 2026-11-29)';

/**
 * The date text: what the format is and, when the value is a date written another way (29.11.2026,
 * 29/11/2026, 2026/11/29, 20261129, a date-time), the same date as YYYY-MM-DD.
 */
export function dateText(value: unknown): IssueText {
  if (typeof value !== 'string') return { message: `${DATE_FORMAT}, not ${shown(value)}` };
  const s = value.trim();
  let suggestion: string | undefined;
  let note = '';
  let m: RegExpMatchArray | null;
  if ((m = s.match(/^(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})$/))) suggestion = calendarDate(+m[3]!, +m[2]!, +m[1]!);
  else if ((m = s.match(/^(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})$/))) {
    suggestion = calendarDate(+m[1]!, +m[2]!, +m[3]!);
    if (!suggestion && /^\d{4}-\d{2}-\d{2}$/.test(s))
      return { message: `${JSON.stringify(s)} is not a calendar date (no such day in that month)` };
  } else if ((m = s.match(/^(\d{4})-(\d{2})-(\d{2})[T ]\d{2}:\d{2}/))) {
    suggestion = calendarDate(+m[1]!, +m[2]!, +m[3]!);
    note = ', without the time';
  } else if ((m = s.match(/^(\d{4})(\d{2})(\d{2})$/))) suggestion = calendarDate(+m[1]!, +m[2]!, +m[3]!);
  else if ((m = s.match(/^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/))) {
    const [a, b, y] = [+m[1]!, +m[2]!, +m[3]!];
    // 29/11/2026 is day first, 11/29/2026 month first; 05/06/2026 could be either: say so instead of guessing
    if (a > 12) suggestion = calendarDate(y, b, a);
    else if (b > 12) suggestion = calendarDate(y, a, b);
    else if (calendarDate(y, b, a)) note = ` (${s} is ambiguous: ${calendarDate(y, b, a)} or ${calendarDate(y, a, b)})`;
  }
  if (suggestion) return { message: `${DATE_FORMAT}${note}: did you mean "${suggestion}"?`, suggestion };
  return { message: `${DATE_FORMAT}, not ${shown(value)}${note}` };
}
