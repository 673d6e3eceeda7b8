import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import {
  CreatedWebhookEndpoint,
  MessageBody,
  missingPermission,
  roleAllows,
  WEBHOOK_EVENT_TYPES,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookTestResult,
  type WebhookDelivery,
} from '@inv/contracts';
import { esc, fill, page, type PageOpts } from '../../kit/html';
import type { Lang, Texts } from '../../kit/i18n';
import type { PageCaller } from '../../kit/api-client';
import type { Ctx, PagesKit } from '../../kit/pages-kit';
import { problemMessage } from '../../kit/problems';
import type { Flash, Session } from '../../kit/sessions';

/** What the webhook pages use of the dashboard's kit. */
export type WebhookPagesKit = Pick<PagesKit, 'signedIn' | 'send' | 'redirectWith' | 'takeFlash' | 'field' | 'asMember'> & {
  nav(s: Session, current: 'webhooks'): NonNullable<PageOpts['nav']>;
  webhooks: PageCaller;
};

type EndpointView = WebhookEndpoint;
type DeliveryView = z.output<typeof WebhookDelivery>;

const ID = /^[\w-]{1,64}$/;
const EVENT_CHOICES = WEBHOOK_EVENT_TYPES.filter((t) => t !== 'ping');

/**
 * Webhook endpoints in the web app (owners and admins, `webhooks:manage`): list and create them (the signing
 * secret is shown once, like a new API key), send a test event, delete, and read an endpoint's delivery log
 * with a retry button per failed delivery. Every action is the public API's call to webhook-service with the
 * member's signed identity, so the service checks the same permission again.
 */
export function registerWebhookPages(router: Router, pagesKit: PagesKit): void {
  const kit: WebhookPagesKit = { ...pagesKit, nav: (s) => pagesKit.nav(s, 'developers', 'webhooks'), webhooks: pagesKit.api };
  const td = (label: string, html: string) => `<td data-label="${esc(label)}">${html}</td>`;
  const when = (lang: Lang, v: unknown) =>
    typeof v === 'string'
      ? esc(new Date(v).toLocaleString(lang === 'de' ? 'de-DE' : 'en-GB', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' }))
      : '';
  const statusBadge = (t: Texts, e: EndpointView) =>
    e.enabled
      ? `<span class="badge">${esc(t.active)}</span>`
      : `<span class="badge off">${esc(e.disabled_reason === 'gone' ? t.webhookGone : e.disabled_reason === 'failing' ? t.webhookFailing : t.webhookDisabled)}</span>`;
  const forbidden = (res: Response, ctx: Ctx) =>
    kit.send(
      res,
      403,
      page({
        lang: ctx.lang,
        t: ctx.t,
        title: ctx.t.webhooks,
        nav: kit.nav(ctx.s, 'webhooks'),
        body: '',
        message: { kind: 'error', text: ctx.t.forbidden },
      }),
    );

  async function listPage(
    req: Request,
    res: Response,
    ctx: Ctx,
    status: number,
    message?: Flash,
    form?: { url: string; events: string[]; description: string },
  ) {
    const { s, t, lang } = ctx;
    if (!roleAllows(s.role, 'webhooks:manage')) return forbidden(res, ctx);
    const listed = await kit.webhooks('GET', '/webhook-endpoints/', undefined, kit.asMember(req, res, s), WebhookEndpointList);
    const endpoints = listed.ok ? listed.body.endpoints : [];
    const rows = endpoints
      .map(
        (e) =>
          `<tr>${td(t.webhookUrl, `<a href="/app/webhooks/${esc(e.id)}"><code>${esc(e.url)}</code></a>${e.description ? `<br><span class="muted">${esc(e.description)}</span>` : ''}`)}` +
          `${td(t.webhookEvents, esc(e.event_types.includes('*') ? t.webhookAllEvents : e.event_types.join(', ')))}${td(t.status, statusBadge(t, e))}${td(t.created, when(lang, e.created_at))}</tr>`,
      )
      .join('\n');
    const checked = new Set(form?.events ?? ['*']);
    const checks = ['*', ...EVENT_CHOICES]
      .map(
        (ev) =>
          `<label><input type="checkbox" name="events" value="${esc(ev)}"${checked.has(ev) ? ' checked' : ''}>${ev === '*' ? esc(t.webhookAllEvents) : `<code>${esc(ev)}</code>`}</label>`,
      )
      .join('');
    const secretBox = message?.secret
      ? `<section class="card secret-box" aria-labelledby="secret-h"><h2 id="secret-h">${esc(t.webhookSecretOnce)}</h2><code class="secret" id="secret">${esc(message.secret)}</code>
<button type="button" class="secondary" data-copy="secret" data-done="${esc(t.copied)}">${esc(t.copy)}</button></section>`
      : '';
    const table = endpoints.length
      ? `<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(t.webhooks)}</caption><thead><tr><th scope="col">${esc(t.webhookUrl)}</th><th scope="col">${esc(t.webhookEvents)}</th><th scope="col">${esc(t.status)}</th><th scope="col">${esc(t.created)}</th></tr></thead><tbody>${rows}</tbody></table></div>`
      : `<p class="muted">${esc(t.noWebhooks)}</p>`;
    kit.send(
      res,
      status,
      page({
        lang,
        t,
        title: t.webhooks,
        nav: kit.nav(s, 'webhooks'),
        message: message && { kind: message.kind, text: message.text },
        body: `${secretBox}<section class="card" aria-labelledby="new-hook-h"><h2 id="new-hook-h">${esc(t.newWebhook)}</h2><form class="stack wide" method="post" action="/app/webhooks"><input type="hidden" name="csrf" value="${esc(s.csrf)}">
<label for="url">${esc(t.webhookUrl)}</label><input id="url" name="url" type="url" inputmode="url" required maxlength="2048" placeholder="https://example.com/webhooks" value="${esc(form?.url ?? '')}">
<label for="description">${esc(t.webhookDescription)}</label><input id="description" name="description" maxlength="500" value="${esc(form?.description ?? '')}">
<fieldset><legend>${esc(t.webhookEvents)}</legend><div class="checks">${checks}</div></fieldset>
<p class="actions"><button type="submit">${esc(t.createWebhook)}</button></p></form></section>${table}`,
      }),
    );
  }

  async function endpointPage(req: Request, res: Response, ctx: Ctx, id: string, status: number, message?: Flash) {
    const { s, t, lang } = ctx;
    if (!roleAllows(s.role, 'webhooks:manage')) return forbidden(res, ctx);
    const who = kit.asMember(req, res, s);
    const found = await kit.webhooks('GET', `/webhook-endpoints/${encodeURIComponent(id)}`, undefined, who, WebhookEndpoint);
    if (!found.ok) return kit.redirectWith(req, res, '/app/webhooks', { kind: 'error', text: t.webhookNotFound });
    const e = found.body;
    const log = await kit.webhooks(
      'GET',
      `/webhook-endpoints/${encodeURIComponent(id)}/deliveries?limit=50`,
      undefined,
      who,
      WebhookDeliveryPage,
    );
    const deliveries = (log.ok ? log.body.deliveries : []).filter((d) => ID.test(d.id));
    const csrf = `<input type="hidden" name="csrf" value="${esc(s.csrf)}">`;
    const badge = (d: DeliveryView) =>
      `<span class="badge${d.status === 'delivered' ? '' : d.status === 'failed' ? ' bad' : ' off'}">${esc(t.deliveryStatus[d.status] ?? d.status)}</span>`;
    const rows = deliveries
      .map(
        (d) =>
          `<tr>${td(t.created, when(lang, d.created_at))}${td(t.webhookEvent, `<code>${esc(d.event_type)}</code>`)}${td(t.status, badge(d))}${td(t.attempts, esc(d.attempts))}` +
          `${td(t.answer, esc([d.last_http_status ?? d.last_error ?? '', d.last_duration_ms !== null ? `${d.last_duration_ms} ms` : ''].filter(Boolean).join(' · ')))}` +
          `<td>${d.status === 'failed' || (d.status === 'pending' && d.attempts > 0) ? `<form method="post" action="/app/webhooks/${esc(e.id)}/deliveries/${esc(d.id)}/retry">${csrf}<button type="submit" class="secondary">${esc(t.retry)}</button></form>` : ''}</td></tr>`,
      )
      .join('\n');
    const table = deliveries.length
      ? `<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(t.deliveries)}</caption><thead><tr><th scope="col">${esc(t.created)}</th><th scope="col">${esc(t.webhookEvent)}</th><th scope="col">${esc(t.status)}</th><th scope="col">${esc(t.attempts)}</th><th scope="col">${esc(t.answer)}</th><th scope="col"><span class="sr-only">${esc(t.retry)}</span></th></tr></thead><tbody>${rows}</tbody></table></div>`
      : `<p class="muted">${esc(t.noDeliveries)}</p>`;
    kit.send(
      res,
      status,
      page({
        lang,
        t,
        title: t.webhook,
        nav: kit.nav(s, 'webhooks'),
        message: message && { kind: message.kind, text: message.text },
        body: `<section class="card"><p class="lead"><code>${esc(e.url)}</code> ${statusBadge(t, e)}</p>${e.description ? `<p>${esc(e.description)}</p>` : ''}
<p class="muted">${esc(t.webhookEvents)}: ${esc(e.event_types.includes('*') ? t.webhookAllEvents : e.event_types.join(', '))}</p>
<div class="row-actions"><form method="post" action="/app/webhooks/${esc(e.id)}/test">${csrf}<button type="submit" class="secondary">${esc(t.sendTest)}</button></form>
${e.enabled ? '' : `<form method="post" action="/app/webhooks/${esc(e.id)}/enable">${csrf}<button type="submit" class="secondary">${esc(t.enable)}</button></form>`}
<a class="button secondary" href="/app/webhooks/${esc(e.id)}/delete">${esc(t.deleteWebhook)}</a></div></section>
<h2>${esc(t.deliveries)}</h2>${table}<p><a href="/app/webhooks">${esc(t.backToWebhooks)}</a></p>`,
      }),
    );
  }

  router.get('/webhooks', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (ctx) await listPage(req, res, ctx, 200, await kit.takeFlash(req, res));
  });
  router.post('/webhooks', async (req, res) => {
    const ctx = await kit.signedIn(req, res, true);
    if (!ctx) return;
    if (missingPermission(ctx.s.role, 'POST', '/webhook-endpoints/')) return forbidden(res, ctx);
    const raw = req.body?.events;
    const events = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string');
    const input = { url: kit.field(req, 'url').trim(), description: kit.field(req, 'description').trim(), events };
    const eventTypes = events.length === 0 || events.includes('*') ? ['*'] : events;
    const created = await kit.webhooks(
      'POST',
      '/webhook-endpoints/',
      { url: input.url, event_types: eventTypes, ...(input.description ? { description: input.description } : {}) },
      kit.asMember(req, res, ctx.s),
      CreatedWebhookEndpoint,
    );
    if (created.ok)
      return kit.redirectWith(req, res, '/app/webhooks', {
        kind: 'ok',
        text: fill(ctx.t.webhookCreated, { url: created.body.url }),
        secret: created.body.secret,
      });
    await listPage(
      req,
      res,
      ctx,
      created.status >= 500 ? 502 : created.status,
      { kind: 'error', text: problemMessage(ctx.lang, created.status, created.body) },
      input,
    );
  });
  router.get('/webhooks/:id', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    if (!ID.test(req.params.id)) return void res.redirect(303, '/app/webhooks');
    await endpointPage(req, res, ctx, req.params.id, 200, await kit.takeFlash(req, res));
  });

  router.get('/webhooks/:id/delete', async (req, res) => {
    const ctx = await kit.signedIn(req, res, false);
    if (!ctx) return;
    const { s, t, lang } = ctx;
    if (!roleAllows(s.role, 'webhooks:manage')) return forbidden(res, ctx);
    const found = ID.test(req.params.id)
      ? await kit.webhooks(
          'GET',
          `/webhook-endpoints/${encodeURIComponent(req.params.id)}`,
          undefined,
          kit.asMember(req, res, s),
          WebhookEndpoint,
        )
      : undefined;
    if (!found?.ok) return void res.redirect(303, '/app/webhooks');
    const e = found.body;
    kit.send(
      res,
      200,
      page({
        lang,
        t,
        title: t.deleteWebhook,
        nav: kit.nav(s, 'webhooks'),
        body: `<div class="card narrow"><form method="post" action="/app/webhooks/${esc(e.id)}/delete"><input type="hidden" name="csrf" value="${esc(s.csrf)}">
<p class="lead">${esc(fill(t.deleteWebhookConfirm, { url: e.url }))}</p><p class="actions"><button type="submit" class="danger">${esc(t.deleteWebhook)}</button> <a class="button secondary" href="/app/webhooks/${esc(e.id)}">${esc(t.cancel)}</a></p></form></div>`,
      }),
    );
  });

  /** A button on the endpoint page: one API call, then back to the page with what happened (Post/Redirect/Get). */
  const action = (
    path: string,
    call: (id: string, deliveryId: string) => { method: 'POST' | 'PUT' | 'DELETE'; path: string; body?: unknown; answer: z.ZodType },
    done: (t: Texts) => string,
    to: (id: string) => string = (id) => `/app/webhooks/${id}`,
  ) =>
    router.post(path, async (req: Request<Record<string, string>>, res) => {
      const ctx = await kit.signedIn(req, res, true);
      if (!ctx) return;
      const id = req.params.id ?? '';
      const deliveryId = req.params.did ?? '';
      if (!ID.test(id) || (req.params.did !== undefined && !ID.test(deliveryId))) return void res.redirect(303, '/app/webhooks');
      const c = call(encodeURIComponent(id), encodeURIComponent(deliveryId));
      if (missingPermission(ctx.s.role, c.method, c.path)) return forbidden(res, ctx);
      const answer = await kit.webhooks(c.method, c.path, c.body, kit.asMember(req, res, ctx.s), c.answer);
      const ok = answer.ok;
      await kit.redirectWith(
        req,
        res,
        ok ? to(id) : `/app/webhooks/${id}`,
        ok ? { kind: 'ok', text: done(ctx.t) } : { kind: 'error', text: problemMessage(ctx.lang, answer.status, answer.body) },
      );
    });
  action(
    '/webhooks/:id/test',
    (id) => ({ method: 'POST', path: `/webhook-endpoints/${id}/test`, answer: WebhookTestResult }),
    (t) => t.testSent,
  );
  action(
    '/webhooks/:id/enable',
    (id) => ({ method: 'PUT', path: `/webhook-endpoints/${id}`, body: { enabled: true }, answer: WebhookEndpoint }),
    (t) => t.webhookEnabled,
  );
  action(
    '/webhooks/:id/deliveries/:did/retry',
    (id, did) => ({ method: 'POST', path: `/webhook-endpoints/${id}/deliveries/${did}/retry`, answer: MessageBody }),
    (t) => t.retryQueued,
  );
  action(
    '/webhooks/:id/delete',
    (id) => ({ method: 'DELETE', path: `/webhook-endpoints/${id}`, answer: MessageBody }),
    (t) => t.webhookDeleted,
    () => '/app/webhooks',
  );
}
