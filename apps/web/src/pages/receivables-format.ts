import { z } from 'zod';
import { esc } from '../kit/html';
import type { Lang } from '../kit/i18n';
import type { As, PageCaller } from '../kit/api-client';

/**
 * Formatting shared by the bank statement, reminder and recurring invoice pages: amounts and dates in the page's
 * language (de-DE / en-GB, dates in UTC) and a pager over the API's page/limit paging.
 */
const locale = (lang: Lang) => (lang === 'de' ? 'de-DE' : 'en-GB');

/** A decimal string as the API wrote it ("119.00", "-12.5"): digits, an optional sign and at most one point. */
const DECIMAL = /^-?\d{1,15}(\.\d{1,6})?$/;

/**
 * An amount in its currency: a decimal string is formatted as written (Intl takes it exactly, no float on the way);
 * a number (the API's JSON amounts, exact to the cent) as it is. Anything else is shown escaped, unformatted.
 */
export function money(lang: Lang, value: number | string | null | undefined, currency = 'EUR'): string {
  if (value === null || value === undefined || value === '') return '';
  const cur = /^[A-Z]{3}$/.test(currency) ? currency : 'EUR';
  const f = new Intl.NumberFormat(locale(lang), { style: 'currency', currency: cur });
  if (typeof value === 'number') return Number.isFinite(value) ? f.format(value) : '';
  return DECIMAL.test(value) ? f.format(value as `${number}`) : value;
}

/** A day (YYYY-MM-DD) or a timestamp in the page's language, in UTC. */
export function day(lang: Lang, value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(d.getTime())) return value;
  // 27.11.2026 in German, 27 Nov 2026 in English: as the invoice pages write them (no 11/27 against 27/11 confusion)
  return lang === 'de'
    ? d.toLocaleDateString('de-DE', { timeZone: 'UTC', day: '2-digit', month: '2-digit', year: 'numeric' })
    : d.toLocaleDateString('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });
}

export function dateTime(lang: Lang, value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return d.toLocaleString(locale(lang), { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' }) + ' UTC';
}

/** A share (0..1) as a percentage. */
export function percent(lang: Lang, share: number): string {
  return new Intl.NumberFormat(locale(lang), { style: 'percent', maximumFractionDigits: 0 }).format(share);
}

/** The `page` query parameter, bounded (1 to 10,000; anything else is 1). */
export function pageParam(v: unknown): number {
  return typeof v === 'string' && /^\d{1,5}$/.test(v) && Number(v) >= 1 ? Number(v) : 1;
}

/**
 * Previous/next links of a paged list (the API's page, limit and total); `href(page)` builds the link with the
 * list's other filters. Empty when everything fits on one page.
 */
export function pager(
  o: { page: number; limit: number; total: number },
  href: (page: number) => string,
  t: { previous: string; next: string; pageOf: string; pagination: string },
): string {
  const last = Math.max(1, Math.ceil(o.total / Math.max(1, o.limit)));
  if (last <= 1 && o.page <= 1) return '';
  const label = t.pageOf.replace('{page}', String(o.page)).replace('{pages}', String(last));
  const prev =
    o.page > 1 ? `<a class="button secondary" href="${esc(href(Math.min(o.page - 1, last)))}" rel="prev">${esc(t.previous)}</a>` : '';
  const next = o.page < last ? `<a class="button secondary" href="${esc(href(o.page + 1))}" rel="next">${esc(t.next)}</a>` : '';
  return `<nav class="actions" aria-label="${esc(t.pagination)}">${prev}<span class="muted">${esc(label)}</span>${next}</nav>`;
}

/** A query string of the given filters (empty values left out), for links that keep a list's filters. */
export function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The part of GET /customer/{id} the pages show: the customer's name. */
export const CustomerName = z.object({
  id: z.number().int(),
  organization_name: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
});
/** Most customers a page looks up one by one (each is a call against the company's rate limit). */
export const MAX_CUSTOMER_LOOKUPS = 5;
/** From this many distinct customers on, a page first reads one page of 100 customers (one call) for their names. */
const LIST_FROM = 4;

/**
 * The names of the customers a page lists (only ids come with proposals, invoices and templates). A few are read one
 * by one (GET /customer/{id}); for more, one page of 100 customers first and the few still missing one by one, at
 * most MAX_CUSTOMER_LOOKUPS: a page costs at most six calls. A customer not found stays unnamed.
 */
export async function customerNames(api: PageCaller, as: As, ids: number[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0);
  const names = new Map<number, string>();
  const add = (c: z.output<typeof CustomerName>) => {
    const name = c.organization_name || [c.first_name, c.last_name].filter(Boolean).join(' ');
    if (name && wanted.includes(c.id)) names.set(c.id, name);
  };
  if (wanted.length >= LIST_FROM) {
    const listed = await api('GET', '/customer/?limit=100', undefined, as, z.array(CustomerName));
    if (listed.ok) listed.body.forEach(add);
  }
  const missing = wanted.filter((id) => !names.has(id)).slice(0, MAX_CUSTOMER_LOOKUPS);
  const found = await Promise.all(missing.map((id) => api('GET', `/customer/${id}`, undefined, as, CustomerName)));
  for (const answer of found) if (answer.ok) add(answer.body);
  return names;
}

/**
 * Label/value pairs (a statement's, a line's, a schedule's facts) as a description list: two columns from 40rem,
 * one below; pairs with an empty value are left out. Values are HTML (escaped by the caller).
 */
export function factTable(rows: [string, string][]): string {
  const items = rows
    .filter(([, v]) => v)
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`)
    .join('');
  return `<dl class="kv">${items}</dl>`;
}

/** A list's one-field filter as a GET form: label, select, button (keyboard usable, no script). */
export function selectFilter(o: {
  action: string;
  name: string;
  label: string;
  button: string;
  options: [string, string][];
  selected: string;
}): string {
  const options = o.options.map(([v, l]) => `<option value="${esc(v)}"${o.selected === v ? ' selected' : ''}>${esc(l)}</option>`).join('');
  return `<form class="stack" method="get" action="${esc(o.action)}"><label for="${esc(o.name)}">${esc(o.label)}</label><select id="${esc(o.name)}" name="${esc(o.name)}">${options}</select><p class="actions"><button type="submit" class="secondary">${esc(o.button)}</button></p></form>`;
}

/** An IBAN in groups of four (as printed on statements; it wraps between groups). */
export const ibanGroups = (iban: string) => iban.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
