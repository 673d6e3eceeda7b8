import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Response } from 'express';
import { esc, fill } from '../../kit/html';
import type { PageAnswer } from '../../kit/api-client';
import type { Ctx, PagesKit } from '../../kit/pages-kit';
import { texts, type SettingsTexts } from './texts';

/** What the settings pages share: their texts, form pieces, the problem sentence of a form, fetching a presigned file. */
export const tx = (ctx: Ctx): SettingsTexts => texts[ctx.lang];
export const csrfInput = (ctx: Ctx) => `<input type="hidden" name="csrf" value="${esc(ctx.s.csrf)}">`;
/** A form that creates something carries a fresh idempotency token: a double submit is done once. */
export const idemInput = () => `<input type="hidden" name="idem" value="${randomUUID()}">`;
/** The page's status for an API refusal: the API's 4xx, 502 for its 5xx. */
export const statusOf = (answer: { status: number }) => (answer.status >= 500 ? 502 : answer.status);
export const IDEM = /^[0-9a-f-]{36}$/;
/** Ids of bank accounts, payment terms and downloads: the API's positive integers. */
export const INT_ID = /^[1-9]\d{0,9}$/;

export const locale = (ctx: Ctx) => (ctx.lang === 'de' ? 'de-DE' : 'en-GB');
export const dateTime = (ctx: Ctx, v: string | null | undefined) =>
  v ? esc(new Date(v).toLocaleString(locale(ctx), { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' })) : '';
export const day = (ctx: Ctx, v: string | null | undefined) =>
  v && /^\d{4}-\d{2}-\d{2}$/.test(v)
    ? esc(new Date(`${v}T00:00:00Z`).toLocaleDateString(locale(ctx), { timeZone: 'UTC', dateStyle: 'medium' }))
    : esc(v ?? '');
export const bytes = (ctx: Ctx, n: number) =>
  n >= 1024 * 1024
    ? `${(n / 1024 / 1024).toLocaleString(locale(ctx), { maximumFractionDigits: 1 })} MB`
    : n >= 1024
      ? `${(n / 1024).toLocaleString(locale(ctx), { maximumFractionDigits: 0 })} KB`
      : `${n} B`;

/** A labelled text input; `hint` is tied to it with aria-describedby. */
export function input(
  name: string,
  label: string,
  value: string | number | null | undefined,
  o: { type?: string; required?: boolean; maxlength?: number; hint?: string; attrs?: string; id?: string } = {},
) {
  const id = o.id ?? name.replace(/[^\w-]/g, '-');
  const hint = o.hint ? `<span class="muted hint" id="${id}-hint">${esc(o.hint)}</span>` : '';
  return `<label for="${id}">${esc(label)}</label>${hint}<input id="${id}" name="${esc(name)}" type="${o.type ?? 'text'}"${o.required ? ' required' : ''}${o.maxlength ? ` maxlength="${o.maxlength}"` : ''}${o.hint ? ` aria-describedby="${id}-hint"` : ''}${o.attrs ? ` ${o.attrs}` : ''} value="${esc(value ?? '')}">`;
}
export function textarea(
  name: string,
  label: string,
  value: string | null | undefined,
  o: { rows?: number; maxlength?: number; hint?: string; id?: string } = {},
) {
  const id = o.id ?? name.replace(/[^\w-]/g, '-');
  const hint = o.hint ? `<span class="muted hint" id="${id}-hint">${esc(o.hint)}</span>` : '';
  return `<label for="${id}">${esc(label)}</label>${hint}<textarea id="${id}" name="${esc(name)}" rows="${o.rows ?? 4}"${o.maxlength ? ` maxlength="${o.maxlength}"` : ''}${o.hint ? ` aria-describedby="${id}-hint"` : ''}>${esc(value ?? '')}</textarea>`;
}
export function select(name: string, label: string, options: readonly (readonly [string, string])[], selected: string, id = name) {
  return `<label for="${id}">${esc(label)}</label><select id="${id}" name="${esc(name)}">${options
    .map(([v, l]) => `<option value="${esc(v)}"${v === selected ? ' selected' : ''}>${esc(l)}</option>`)
    .join('')}</select>`;
}
export const checkbox = (name: string, label: string, checked: boolean) =>
  `<label class="check"><input type="checkbox" name="${esc(name)}" value="1"${checked ? ' checked' : ''}>${esc(label)}</label>`;

/**
 * The live company's profile, logo, bank accounts and payment terms are read-only in the test data (the API answers
 * 403 TEST_MODE_READ_ONLY): the pages offer no form there and say so.
 */
export const liveData = (ctx: Ctx) => ctx.s.mode !== 'test';
export const testReadOnlyNote = (ctx: Ctx) => (liveData(ctx) ? '' : `<p class="msg ok">${esc(tx(ctx).testReadOnly)}</p>`);

/** A table that becomes cards on a narrow screen (a head `sr:Actions` is read out but not shown). */
export const table = (caption: string, heads: string[], rows: string[]) =>
  `<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(caption)}</caption><thead><tr>${heads
    .map((h) => `<th scope="col">${h.startsWith('sr:') ? `<span class="sr-only">${esc(h.slice(3))}</span>` : esc(h)}</th>`)
    .join('')}</tr></thead><tbody>${rows.join('\n')}</tbody></table></div>`;
/** A read-only list of label/value pairs (what a viewer sees instead of a form). */
export const facts = (caption: string, pairs: [string, string][]) =>
  `<div class="table-wrap" tabindex="0"><table class="facts"><caption class="sr-only">${esc(caption)}</caption><tbody>${pairs
    .map(([k, v]) => `<tr><th scope="row">${esc(k)}</th><td>${v || '<span class="muted">–</span>'}</td></tr>`)
    .join('')}</tbody></table></div>`;

/** A whole number typed in a form, or the text itself (the API answers a field error naming it). */
export const int = (v: string): number | string | undefined => {
  const s = v.trim();
  if (!s) return undefined;
  return /^-?\d{1,12}$/.test(s) ? Number(s) : s;
};
/** A decimal typed with a comma or a point (2,5 or 2.5), or the text itself. */
export const decimal = (v: string): number | string | undefined => {
  const s = v.trim().replace(',', '.');
  if (!s) return undefined;
  return /^\d{1,3}(\.\d{1,2})?$/.test(s) ? Number(s) : v.trim();
};
/** An optional text: empty is null (the API removes the value). */
export const orNull = (v: string) => (v.trim() ? v.trim() : null);

/**
 * The sentence for an API refusal of a settings form: a field error names the form's field (`fields`: the API's
 * path -> the label on the form); any other refusal is the kit's sentence.
 */
export function problemOf(
  kit: PagesKit,
  ctx: Ctx,
  answer: Extract<PageAnswer<unknown>, { ok: false }>,
  fields: Record<string, string> = {},
) {
  const errors = Array.isArray(answer.body.errors) ? (answer.body.errors as unknown[]) : [];
  const named = errors
    .map((e) => (e && typeof e === 'object' ? (e as Record<string, unknown>) : {}))
    .map((e) => {
      const path = typeof e.path === 'string' ? e.path : Array.isArray(e.path) ? e.path.join('.') : '';
      const label = fields[path] ?? fields[path.split('.')[0]!];
      if (!label) return undefined;
      const message = typeof e.message === 'string' ? e.message.slice(0, 200) : '';
      return fill(tx(ctx).fieldProblem, { label, message });
    })
    .filter((x): x is string => x !== undefined);
  if (answer.status === 400 && named.length) return [...new Set(named)].join(' ');
  return kit.problem(ctx, answer);
}

/**
 * Fetches a file behind a presigned link the API answered (a logo, an export ZIP) and streams it to the browser
 * from the dashboard's own origin (the page's CSP allows no other image source; a download keeps its name).
 * Only http(s) links; at most `maxBytes` (the response ends early past it).
 */
export async function sendPresigned(
  res: Response,
  url: string,
  o: { contentType: string; filename?: string; inline?: boolean; maxBytes: number; timeoutMs: number },
): Promise<boolean> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  let file: globalThis.Response;
  try {
    file = await fetch(parsed, { signal: AbortSignal.timeout(o.timeoutMs), redirect: 'error' });
  } catch {
    return false;
  }
  if (!file.ok || !file.body) return false;
  // fetch decodes a compressed body: its length is then not the one the header names
  const length = file.headers.get('content-encoding') ? 0 : Number(file.headers.get('content-length') ?? '0');
  if (length > o.maxBytes) return false;
  res.status(200);
  res.setHeader('content-type', o.contentType);
  res.setHeader('cache-control', 'private, no-store');
  res.setHeader('x-content-type-options', 'nosniff');
  if (length) res.setHeader('content-length', String(length));
  if (o.filename) {
    const ascii = o.filename.replace(/[^\w.\-]/g, '_').slice(0, 150) || 'download';
    res.setHeader(
      'content-disposition',
      `${o.inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(o.filename.slice(0, 150))}`,
    );
  }
  let sent = 0;
  const body = Readable.fromWeb(file.body as import('node:stream/web').ReadableStream);
  body.on('data', (chunk: Buffer) => {
    sent += chunk.length;
    if (sent > o.maxBytes) body.destroy(new Error('file larger than expected'));
  });
  await new Promise<void>((resolve) => {
    body.on('error', () => {
      res.destroy();
      resolve();
    });
    res.on('close', resolve);
    body.pipe(res);
  });
  return true;
}
