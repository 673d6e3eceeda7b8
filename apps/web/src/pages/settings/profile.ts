import type { Request, Response, Router } from 'express';
import busboy from 'busboy';
import { z } from 'zod';
import { Company, CompanyLogo, MessageBody, PaymentTerm } from '@inv/contracts';
import { esc } from '../../kit/html';
import type { Ctx, PagesKit } from '../../kit/pages-kit';
import type { Flash } from '../../kit/sessions';
import {
  checkbox,
  csrfInput,
  liveData,
  testReadOnlyNote,
  facts,
  input,
  int,
  orNull,
  problemOf,
  select,
  sendPresigned,
  statusOf,
  textarea,
  tx,
} from './common';
import type { SettingsTexts } from './texts';

const PaymentTermList = z.object({ payment_terms: z.array(PaymentTerm) });
/** The API takes at most 1 MiB (413 LOGO_TOO_LARGE past it). */
export const MAX_LOGO_BYTES = 1024 * 1024;

type Field = {
  name: string;
  label: (t: SettingsTexts) => string;
  value: (c: z.output<typeof Company>) => string;
  max: number;
  required?: boolean;
  type?: string;
  group: Group;
};
type Group = 'name' | 'address' | 'tax' | 'contact';
/** The profile's text fields, in the form's order (the API's names). */
const FIELDS: Field[] = [
  { name: 'legal_name', group: 'name', label: (t) => t.legalName, value: (c) => c.legal_name, max: 200, required: true },
  { name: 'trading_name', group: 'name', label: (t) => t.tradingName, value: (c) => c.trading_name, max: 200, required: true },
  { name: 'line1', group: 'address', label: (t) => t.line1, value: (c) => c.address.line1, max: 200, required: true },
  { name: 'line2', group: 'address', label: (t) => t.line2, value: (c) => c.address.line2 ?? '', max: 200 },
  { name: 'postal_code', group: 'address', label: (t) => t.postalCode, value: (c) => c.address.postal_code, max: 20, required: true },
  { name: 'city', group: 'address', label: (t) => t.city, value: (c) => c.address.city, max: 100, required: true },
  { name: 'country_code', group: 'address', label: (t) => t.countryCode, value: (c) => c.address.country_code, max: 2, required: true },
  { name: 'vat_id', group: 'tax', label: (t) => t.vatId, value: (c) => c.vat_id ?? '', max: 20 },
  { name: 'tax_number', group: 'tax', label: (t) => t.taxNumber, value: (c) => c.tax_number ?? '', max: 30 },
  { name: 'registration_court', group: 'tax', label: (t) => t.registrationCourt, value: (c) => c.registration_court ?? '', max: 100 },
  { name: 'registration_id', group: 'tax', label: (t) => t.registrationId, value: (c) => c.registration_id ?? '', max: 50 },
  { name: 'peppol_id', group: 'tax', label: (t) => t.peppolId, value: (c) => c.peppol_id ?? '', max: 200 },
  { name: 'contact_name', group: 'contact', label: (t) => t.contactName, value: (c) => c.contact_name ?? '', max: 100 },
  { name: 'email', group: 'contact', label: (t) => t.email, value: (c) => c.email ?? '', max: 254, type: 'email' },
  { name: 'phone', group: 'contact', label: (t) => t.phone, value: (c) => c.phone ?? '', max: 40, type: 'tel' },
  { name: 'website', group: 'contact', label: (t) => t.website, value: (c) => c.website ?? '', max: 200, type: 'url' },
];
type Form = Record<string, string>;

/** The company profile (PUT /company/, a merge patch) and the letterhead logo (PUT/GET/DELETE /company/logo). */
export function registerProfilePages(router: Router, kit: PagesKit): void {
  const fieldLabels = (t: SettingsTexts): Record<string, string> => ({
    ...Object.fromEntries(
      FIELDS.map((f) => [
        f.name === 'line1' || f.name === 'line2' || f.name === 'postal_code' || f.name === 'city' || f.name === 'country_code'
          ? `address.${f.name}`
          : f.name,
        f.label(t),
      ]),
    ),
    managing_directors: t.managingDirectors,
    default_language: t.defaultLanguage,
    payment_term_days: t.paymentTermDays,
    default_payment_term_id: t.defaultPaymentTerm,
    small_business: t.smallBusiness,
  });

  async function profilePage(req: Request, res: Response, ctx: Ctx, status: number, message?: Flash, form?: Form) {
    const t = tx(ctx);
    const as = kit.asMember(req, res, ctx.s);
    const [company, terms] = await Promise.all([
      kit.api('GET', '/company/', undefined, as, Company),
      kit.api('GET', '/company/payment-terms', undefined, as, PaymentTermList),
    ]);
    if (!company.ok)
      return kit.render(res, ctx, {
        status: statusOf(company),
        title: t.profile,
        current: 'settings',
        sub: 'profile',
        body: '',
        message: { kind: 'error', text: kit.problem(ctx, company) },
      });
    const c = company.body;
    const termList = terms.ok ? terms.body.payment_terms : [];
    const termName = termList.find((p) => p.id === c.default_payment_term_id)?.name;
    const canEdit = kit.may(ctx, 'PUT', '/company/') && liveData(ctx);
    const v = (name: string, current: string) => (form ? (form[name] ?? '') : current);
    const languages = [
      ['de', t.german],
      ['en', t.english],
    ] as const;
    let details: string;
    if (canEdit) {
      const f = (x: Field) =>
        input(x.name, x.label(t), v(x.name, x.value(c)), {
          required: x.required,
          maxlength: x.max,
          type: x.type,
          ...(x.name === 'country_code' ? { hint: t.countryHint, attrs: 'autocapitalize="characters"' } : {}),
        });
      const box = (html: string) => `<div class="field">${html}</div>`;
      const group = (g: Group, legend: string, extra: string[] = []) =>
        `<fieldset class="group"><legend>${esc(legend)}</legend><div class="grid">${[
          ...FIELDS.filter((x) => x.group === g).map(f),
          ...extra,
        ]
          .map(box)
          .join('\n')}</div></fieldset>`;
      details = `<section class="card" aria-labelledby="profile-h"><h2 id="profile-h">${esc(t.companyData)}</h2>
<form class="stack wide" method="post" action="/app/settings">${csrfInput(ctx)}
${group('name', t.groupName, [textarea('managing_directors', t.managingDirectors, v('managing_directors', c.managing_directors.join('\n')), { rows: 3, hint: t.onePerLine })])}
${group('address', t.groupAddress)}
${group('tax', t.groupTax)}
${group('contact', t.groupContact)}
<fieldset class="group"><legend>${esc(t.groupDefaults)}</legend><div class="grid">${[
        select('default_language', t.defaultLanguage, languages, v('default_language', c.default_language)),
        input('payment_term_days', t.paymentTermDays, v('payment_term_days', String(c.payment_term_days)), {
          type: 'number',
          attrs: 'min="0" max="365" inputmode="numeric"',
          hint: t.paymentTermDaysHint,
        }),
        select(
          'default_payment_term_id',
          t.defaultPaymentTerm,
          [['', t.noDefaultTerm], ...termList.map((p) => [String(p.id), p.name] as const)],
          v('default_payment_term_id', c.default_payment_term_id === null ? '' : String(c.default_payment_term_id)),
        ),
        checkbox('small_business', t.smallBusiness, form ? form.small_business === '1' : c.small_business),
      ]
        .map(box)
        .join('\n')}</div></fieldset>
<p class="actions"><button type="submit">${esc(t.save)}</button></p></form></section>`;
    } else {
      details = `<section class="card" aria-labelledby="profile-h"><h2 id="profile-h">${esc(t.companyData)}</h2>${liveData(ctx) ? `<p class="muted">${esc(t.readOnly)}</p>` : ''}${facts(
        t.companyData,
        [
          ...FIELDS.map((x) => [x.label(t), esc(x.value(c))] as [string, string]),
          [t.managingDirectors, esc(c.managing_directors.join(', '))],
          [t.defaultLanguage, esc(c.default_language === 'de' ? t.german : t.english)],
          [t.paymentTermDays, esc(c.payment_term_days)],
          [t.defaultPaymentTerm, esc(termName ?? '')],
          [t.smallBusiness, esc(c.small_business ? t.yes : t.no)],
        ],
      )}</section>`;
    }
    const vat = c.vat_check
      ? `<p>${esc(t.vatCheck)}: <span class="badge${c.vat_check.status === 'valid' ? '' : c.vat_check.status === 'invalid' ? ' bad' : ' off'}">${esc(t.vatStatus[c.vat_check.status])}</span>${c.vat_check.name ? ` <span class="muted">${esc(c.vat_check.name)}</span>` : ''}</p>`
      : '';
    const mayLogo = kit.may(ctx, 'PUT', '/company/logo') && liveData(ctx);
    const logo = `<section class="card" aria-labelledby="logo-h"><h2 id="logo-h">${esc(t.logo)}</h2>${
      c.has_logo
        ? `<p><img class="logo" src="/app/settings/logo/image" alt="${esc(t.logoAlt)}"></p>`
        : `<p class="muted">${esc(t.noLogo)}</p>`
    }${
      mayLogo
        ? `<form class="stack" method="post" action="/app/settings/logo" enctype="multipart/form-data">${csrfInput(ctx)}
<label for="logo-file">${esc(t.logoFile)}</label><span class="muted hint" id="logo-file-hint">${esc(t.logoHint)}</span><input id="logo-file" name="logo" type="file" accept="image/png,image/jpeg" required aria-describedby="logo-file-hint">
<p class="actions"><button type="submit">${esc(t.uploadLogo)}</button>${c.has_logo ? `<a class="button secondary" href="/app/settings/logo/delete">${esc(t.deleteLogo)}</a>` : ''}</p></form>`
        : ''
    }</section>`;
    kit.render(res, ctx, {
      status,
      title: t.profile,
      current: 'settings',
      sub: 'profile',
      message,
      body: `<p class="lead">${esc(t.profileLead)}</p>${testReadOnlyNote(ctx)}${vat}${details}${logo}`,
    });
  }

  router.get('/settings', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (ctx) await profilePage(req, res, ctx, 200, await kit.takeFlash(req, res));
  });

  router.post('/settings', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = tx(ctx);
    if (!kit.may(ctx, 'PUT', '/company/')) return kit.refuse(res, ctx, { title: t.profile, current: 'settings', sub: 'profile' });
    const form: Form = {};
    for (const name of [
      ...FIELDS.map((f) => f.name),
      'managing_directors',
      'default_language',
      'payment_term_days',
      'default_payment_term_id',
      'small_business',
    ])
      form[name] = kit.field(req, name).slice(0, 2000);
    const directors = form
      .managing_directors!.split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
    const termId = int(form.default_payment_term_id!);
    const body = {
      legal_name: form.legal_name!.trim(),
      trading_name: form.trading_name!.trim(),
      address: {
        line1: form.line1!.trim(),
        line2: orNull(form.line2!),
        postal_code: form.postal_code!.trim(),
        city: form.city!.trim(),
        country_code: form.country_code!.trim(),
      },
      vat_id: orNull(form.vat_id!),
      tax_number: orNull(form.tax_number!),
      registration_court: orNull(form.registration_court!),
      registration_id: orNull(form.registration_id!),
      peppol_id: orNull(form.peppol_id!),
      contact_name: orNull(form.contact_name!),
      email: orNull(form.email!),
      phone: orNull(form.phone!),
      website: orNull(form.website!),
      managing_directors: directors.length ? directors : null,
      ...(form.default_language === 'de' || form.default_language === 'en' ? { default_language: form.default_language } : {}),
      ...(form.payment_term_days!.trim() ? { payment_term_days: int(form.payment_term_days!) } : {}),
      default_payment_term_id: termId ?? null,
      small_business: form.small_business === '1',
    };
    const saved = await kit.api('PUT', '/company/', body, kit.asMember(req, res, ctx.s), Company);
    if (saved.ok) return kit.redirectWith(req, res, '/app/settings', { kind: 'ok', text: t.profileSaved });
    await profilePage(req, res, ctx, statusOf(saved), { kind: 'error', text: problemOf(kit, ctx, saved, fieldLabels(t)) }, form);
  });

  /** The logo as stored, from the dashboard's origin (the page's CSP allows images from it only). */
  router.get('/settings/logo/image', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    const link = await kit.api('GET', '/company/logo', undefined, kit.asMember(req, res, ctx.s), CompanyLogo);
    if (!link.ok) return void res.status(link.status === 404 ? 404 : 502).end();
    const sent = await sendPresigned(res, link.body.url, {
      contentType: link.body.content_type,
      maxBytes: 4 * MAX_LOGO_BYTES,
      timeoutMs: 10_000,
    });
    if (!sent && !res.headersSent) res.status(502).end();
  });

  router.post('/settings/logo', async (req, res) => {
    let upload: Upload;
    try {
      upload = await readUpload(req, MAX_LOGO_BYTES);
    } catch {
      upload = { fields: {}, malformed: true };
    }
    req.body = upload.fields;
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = tx(ctx);
    if (!kit.may(ctx, 'PUT', '/company/logo')) return kit.refuse(res, ctx, { title: t.profile, current: 'settings', sub: 'profile' });
    if (upload.malformed || !upload.file || upload.file.data.length === 0)
      return profilePage(req, res, ctx, 400, { kind: 'error', text: t.logoMissing });
    if (upload.file.tooLarge) return profilePage(req, res, ctx, 413, { kind: 'error', text: t.logoTooLarge });
    const mime = upload.file.mime === 'image/png' || upload.file.mime === 'image/jpeg' ? upload.file.mime : 'application/octet-stream';
    const put = await kit.raw('PUT', '/company/logo', kit.asMember(req, res, ctx.s), { contentType: mime, data: upload.file.data });
    if (put.ok) {
      await put.arrayBuffer().catch(() => undefined);
      return kit.redirectWith(req, res, '/app/settings', { kind: 'ok', text: t.logoSaved });
    }
    const text = await put.text().catch(() => '');
    let body: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
    } catch {
      body = {};
    }
    const code = typeof body.code === 'string' ? body.code : '';
    const msg =
      code === 'UNSUPPORTED_LOGO_TYPE' || put.status === 415
        ? t.logoWrongType
        : code === 'LOGO_TOO_LARGE' || put.status === 413
          ? t.logoTooLarge
          : kit.problem(ctx, { ok: false, status: put.status, body });
    await profilePage(req, res, ctx, statusOf(put), { kind: 'error', text: msg });
  });

  router.get('/settings/logo/delete', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    const t = tx(ctx);
    if (!kit.may(ctx, 'DELETE', '/company/logo')) return kit.refuse(res, ctx, { title: t.deleteLogo, current: 'settings', sub: 'profile' });
    kit.render(res, ctx, {
      title: t.deleteLogo,
      current: 'settings',
      sub: 'profile',
      body: `<div class="card narrow"><form method="post" action="/app/settings/logo/delete">${csrfInput(ctx)}<p class="lead">${esc(t.deleteLogoConfirm)}</p>
<p class="actions"><button type="submit" class="danger">${esc(t.deleteLogo)}</button> <a class="button secondary" href="/app/settings">${esc(t.cancel)}</a></p></form></div>`,
    });
  });
  router.post('/settings/logo/delete', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    const t = tx(ctx);
    if (!kit.may(ctx, 'DELETE', '/company/logo')) return kit.refuse(res, ctx, { title: t.deleteLogo, current: 'settings', sub: 'profile' });
    const gone = await kit.api('DELETE', '/company/logo', undefined, kit.asMember(req, res, ctx.s), MessageBody);
    await kit.redirectWith(
      req,
      res,
      '/app/settings',
      gone.ok ? { kind: 'ok', text: t.logoDeleted } : { kind: 'error', text: kit.problem(ctx, gone) },
    );
  });
}

type Upload = { fields: Record<string, string>; file?: { data: Buffer; mime: string; tooLarge: boolean }; malformed?: boolean };

/** A multipart form with one file (bounded: `maxBytes`, a few short fields); anything else is malformed. */
function readUpload(req: Request, maxBytes: number): Promise<Upload> {
  return new Promise((resolve, reject) => {
    if (!req.is('multipart/form-data')) return resolve({ fields: {}, malformed: true });
    const bb = busboy({ headers: req.headers, limits: { files: 1, fields: 5, fieldSize: 1024, fileSize: maxBytes, parts: 6 } });
    const out: Upload = { fields: {} };
    bb.on('field', (name, value) => {
      out.fields[name] = value;
    });
    bb.on('file', (_name, stream, info) => {
      const chunks: Buffer[] = [];
      const file = { data: Buffer.alloc(0), mime: info.mimeType, tooLarge: false };
      out.file = file;
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => {
        file.tooLarge = true;
      });
      stream.on('end', () => {
        file.data = Buffer.concat(chunks);
      });
    });
    bb.on('close', () => resolve(out));
    bb.on('error', reject);
    req.pipe(bb);
  });
}
