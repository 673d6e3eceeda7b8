import type { z } from 'zod';
import type { Invoice } from '@inv/contracts';
import { esc, fill } from '../../kit/html';
import type { Lang } from '../../kit/i18n';
import type { PageAnswer } from '../../kit/api-client';
import type { Ctx, PagesKit } from '../../kit/pages-kit';
import { texts, type InvoiceTexts } from './texts';

export type InvoiceView = z.output<typeof Invoice>;

/** An invoice id as the API has it (IntId: a positive integer below 2^31); anything else is a 404 page, never an API call. */
export const INVOICE_ID = /^[1-9]\d{0,9}$/;
export const validId = (v: unknown): v is string => typeof v === 'string' && INVOICE_ID.test(v) && Number(v) <= 2 ** 31 - 1;

export const textsOf = (ctx: Ctx): InvoiceTexts => texts[ctx.lang];
const locale = (lang: Lang) => (lang === 'de' ? 'de-DE' : 'en-GB');

/** An amount of the API (a JSON number exact to the cent) in the page's language. */
export function money(lang: Lang, v: number | null | undefined, currency = 'EUR'): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  return new Intl.NumberFormat(locale(lang), { style: 'currency', currency }).format(v);
}
/** Sum of two cent amounts without binary float residue. */
export const addMoney = (a: number, b: number) => Math.round(a * 100 + b * 100) / 100;

export function num(lang: Lang, v: number, maxDigits = 4): string {
  return new Intl.NumberFormat(locale(lang), { maximumFractionDigits: maxDigits }).format(v);
}
/** 0.19 -> "19 %" / "19%". */
export function rate(lang: Lang, v: number): string {
  return new Intl.NumberFormat(locale(lang), { style: 'percent', maximumFractionDigits: 2 }).format(v);
}
/** A calendar day (YYYY-MM-DD) in the page's language; anything else as it is (escaped by the caller). */
export function day(lang: Lang, v: string | null | undefined): string {
  if (!v) return '–';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return v;
  const d = new Date(`${v}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? v : d.toLocaleDateString(locale(lang), { timeZone: 'UTC', dateStyle: 'medium' });
}
/** A point in time, UTC. */
export function when(lang: Lang, v: string | null | undefined): string {
  if (!v) return '–';
  const d = new Date(v);
  return Number.isNaN(d.getTime())
    ? v
    : d.toLocaleString(locale(lang), { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' }) + ' UTC';
}
export function bytes(lang: Lang, n: number): string {
  if (n < 1024) return `${num(lang, n, 0)} B`;
  if (n < 1024 * 1024) return `${num(lang, n / 1024, 1)} KB`;
  return `${num(lang, n / 1024 / 1024, 1)} MB`;
}
export const today = () => new Date().toISOString().slice(0, 10);

/** The invoice's name: its number, or "Draft 12" before it has one. */
export function numberOf(it: InvoiceTexts, inv: Pick<InvoiceView, 'invoice_number' | 'id'>): string {
  return inv.invoice_number || fill(it.draftNo, { id: String(inv.id) });
}

export function isOverdue(inv: Pick<InvoiceView, 'status' | 'due_date' | 'open_amount'>): boolean {
  return (inv.status === 'OPEN' || inv.status === 'SENT') && !!inv.due_date && inv.due_date < today() && (inv.open_amount ?? 0) > 0;
}

/** The status badge (overdue in red). */
export function statusBadge(it: InvoiceTexts, inv: Pick<InvoiceView, 'status' | 'due_date' | 'open_amount'>): string {
  const label = esc(it.status[inv.status] ?? inv.status);
  if (isOverdue(inv)) return `<span class="badge bad">${label} · ${esc(it.overdue)}</span>`;
  const cls = inv.status === 'DRAFT' || inv.status === 'CANCELLED' ? 'badge off' : inv.status === 'PAID' ? 'badge' : 'badge off';
  return `<span class="${cls}">${label}</span>`;
}

/** A customer's name as the pages show it. */
export function customerName(c: { organization_name: string | null; first_name: string | null; last_name: string | null }): string {
  return c.organization_name || [c.first_name, c.last_name].filter(Boolean).join(' ') || '–';
}

type Refused = Extract<PageAnswer<unknown>, { ok: false }>;
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/**
 * The sentence for an API refusal of an invoice action: the invoice codes in the page's language, the form's fields
 * named as the form names them, else the kit's general sentence (with the service's detail).
 */
export function refusal(kit: PagesKit, ctx: Ctx, answer: Refused): string {
  const it = textsOf(ctx);
  const code = str(answer.body.code) ?? str(answer.body.error_code) ?? '';
  if (Object.hasOwn(it.codes, code)) return it.codes[code]!;
  const errors = Array.isArray(answer.body.errors) ? (answer.body.errors as unknown[]) : [];
  const named = errors
    .map((e) => (e && typeof e === 'object' ? str((e as Record<string, unknown>).path) : undefined))
    .map((p) => (p ?? '').split('.')[0]!)
    .filter((p) => Object.hasOwn(it.fields, p))
    .map((p) => it.fields[p]!);
  if (code === 'VALIDATION_ERROR' && named.length) return fill(it.checkFields, { fields: [...new Set(named)].join(', ') });
  return kit.problem(ctx, answer);
}

/** The page status for an API refusal: its 4xx, or 502 for anything the platform failed at. */
export const statusOf = (answer: { status: number }) => (answer.status >= 500 || answer.status < 400 ? 502 : answer.status);

/** A table cell that names its column, with a class (nowrap: kept on one line from 40rem; num: right-aligned; stack: its label above it on a narrow screen). */
export const cell = (label: string, html: string, cls: 'nowrap' | 'num' | 'stack') =>
  `<td class="${cls}" data-label="${esc(label)}">${html}</td>`;
