import type { Request, Response } from 'express';
import { z } from 'zod';
import { esc } from '../../kit/html';
import type { Lang } from '../../kit/i18n';
import type { As, PageAnswer } from '../../kit/api-client';
import type { Ctx, PagesKit } from '../../kit/pages-kit';

/**
 * Helpers the customer and received-document pages share: formatting of amounts and dates, the API's paged
 * lists (a bare array with the total in X-Total-Count), presigned downloads and the pager.
 */

const locale = (lang: Lang) => (lang === 'de' ? 'de-DE' : 'en-GB');
const DECIMAL = /^-?\d{1,20}(\.\d{1,12})?$/;
const isDecimal = (s: string): s is `${number}` => DECIMAL.test(s);

/** An amount in its currency: a JSON number (EUR cents exact) or the document's decimal string, exactly as written. */
export function money(lang: Lang, v: number | string | null | undefined, currency = 'EUR'): string {
  if (v === null || v === undefined || v === '') return '';
  const code = /^[A-Z]{3}$/.test(currency) ? currency : undefined;
  const nf = (c: string | undefined) =>
    c
      ? new Intl.NumberFormat(locale(lang), { style: 'currency', currency: c })
      : new Intl.NumberFormat(locale(lang), { minimumFractionDigits: 2 });
  let formatted: string;
  try {
    if (typeof v === 'number') formatted = Number.isFinite(v) ? nf(code).format(v) : '';
    else formatted = isDecimal(v) ? nf(code).format(v) : v;
  } catch {
    formatted = typeof v === 'number' ? String(v) : v;
  }
  return esc(code || !currency ? formatted : `${formatted} ${currency}`);
}

/** A calendar day (YYYY-MM-DD) or a timestamp, in the page language, UTC. */
export function day(lang: Lang, v: string | null | undefined): string {
  if (!v) return '';
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v);
  if (Number.isNaN(d.getTime())) return esc(v);
  return esc(d.toLocaleDateString(locale(lang), { timeZone: 'UTC', dateStyle: 'medium' }));
}
export function when(lang: Lang, v: string | null | undefined): string {
  if (!v) return '';
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return esc(v);
  return esc(d.toLocaleString(locale(lang), { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' }) + ' UTC');
}

/** The API's numeric ids (IntId): anything else in a URL is a 404 page, never an API call. */
export const NUMERIC_ID = /^[1-9]\d{0,9}$/;
/** A calendar day as a filter (the date input's value). */
export const ISO_DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** A query parameter as one bounded string ('' when absent, repeated or too long). */
export function queryOf(req: Request, name: string, max = 200): string {
  const v = req.query[name];
  return typeof v === 'string' && v.length <= max ? v.trim() : '';
}
/** The page number of a list (1 when absent or not a small number). */
export function pageOf(req: Request, name = 'page'): number {
  const v = queryOf(req, name, 6);
  return /^[1-9]\d{0,5}$/.test(v) ? Number(v) : 1;
}

export type ListAnswer<T> = { ok: true; items: T[]; total: number } | Extract<PageAnswer<unknown>, { ok: false }>;

/** A paged list the API answers as a bare array with its total in X-Total-Count (customers, received documents). */
export async function listOf<S extends z.ZodType>(kit: PagesKit, path: string, as: As, item: S): Promise<ListAnswer<z.output<S>>> {
  let res: globalThis.Response;
  try {
    res = await kit.raw('GET', path, as);
  } catch {
    return { ok: false, status: 503, body: { code: 'SERVICE_UNAVAILABLE' } };
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (res.status < 200 || res.status >= 300)
    return { ok: false, status: res.status, body: json && typeof json === 'object' ? (json as Record<string, unknown>) : {} };
  const parsed = z.array(item).safeParse(json);
  if (!parsed.success) {
    kit.deps.logger.warn(
      { path: path.split('?')[0], issues: parsed.error.issues.slice(0, 3) },
      'web app: the API answered what the page does not expect',
    );
    return { ok: false, status: 502, body: {} };
  }
  const total = Number(res.headers.get('x-total-count'));
  return { ok: true, items: parsed.data, total: Number.isSafeInteger(total) && total >= 0 ? total : parsed.data.length };
}

/** A presigned link the API answers for a file (statement PDF, received document, its attachments). */
export const FileLink = z.object({ url: z.string(), filename: z.string().optional(), expires_in: z.number().optional() }).loose();

/**
 * A download: the API's presigned link, followed by the browser (303; the object store serves it as an attachment).
 * Only an http(s) link is followed; a refusal is shown on `problemPage`.
 */
export async function sendDownload(
  req: Request,
  res: Response,
  kit: PagesKit,
  ctx: Ctx,
  apiPath: string,
  problemPage: (status: number, text: string) => void,
): Promise<void> {
  const answer = await kit.api('GET', apiPath, undefined, kit.asMember(req, res, ctx.s), FileLink);
  if (!answer.ok) return problemPage(answer.status >= 500 ? 502 : answer.status, kit.problem(ctx, answer));
  let target: URL;
  try {
    target = new URL(answer.body.url);
  } catch {
    return problemPage(502, kit.problem(ctx, { ok: false, status: 502, body: {} }));
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:')
    return problemPage(502, kit.problem(ctx, { ok: false, status: 502, body: {} }));
  res.setHeader('cache-control', 'no-store');
  res.setHeader('referrer-policy', 'no-referrer');
  res.redirect(303, target.toString());
}

/** Previous/next links of a paged list, keeping the filters. */
export function pager(o: {
  base: string;
  params: URLSearchParams;
  /** The query parameter of the page number (default page). */
  param?: string;
  page: number;
  limit: number;
  total: number;
  labels: { prev: string; next: string; of: string; nav: string };
}): string {
  const last = Math.max(1, Math.ceil(o.total / o.limit));
  if (last <= 1) return '';
  const href = (n: number) => {
    const p = new URLSearchParams(o.params);
    p.set(o.param ?? 'page', String(n));
    return `${o.base}?${p.toString()}`;
  };
  const prev =
    o.page > 1 ? `<a class="button secondary" href="${esc(href(Math.min(o.page - 1, last)))}" rel="prev">${esc(o.labels.prev)}</a>` : '';
  const next = o.page < last ? `<a class="button secondary" href="${esc(href(o.page + 1))}" rel="next">${esc(o.labels.next)}</a>` : '';
  return `<nav class="actions" aria-label="${esc(o.labels.nav)}">${prev}<span class="muted">${esc(o.labels.of.replace('{page}', String(o.page)).replace('{pages}', String(last)))}</span>${next}</nav>`;
}

/** The hidden CSRF field of a form. */
export const csrfField = (ctx: Ctx) => `<input type="hidden" name="csrf" value="${esc(ctx.s.csrf)}">`;
