import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { ApiKey, CreatedApiKey, MessageBody, missingPermission, roleAllows } from '@inv/contracts';
import { esc, fill, page } from '../../kit/html';
import { ROLES, td, type Ctx, type PagesKit } from '../../kit/pages-kit';
import { problemMessage } from '../../kit/problems';
import type { Flash } from '../../kit/sessions';

/**
 * API keys in the web app (`keys:manage`): list them, create one (its secret shown once, on the page the form
 * redirects to) and revoke one after a confirmation. Every action is the public API's call to account-service
 * with the member's signed identity.
 */
/** GET /company/api-keys */
const ApiKeyList = z.object({ api_keys: z.array(ApiKey) });

export function registerKeyPages(router: Router, kit: PagesKit): void {
  const { send, field, api: account, asMember, signedIn, redirectWith, nav: navOf } = kit;
  async function keysPage(
    req: Request,
    res: Response,
    ctx: Ctx,
    status: number,
    message?: Flash,
    form?: { name: string; role: string; mode: string },
  ) {
    const { s, t, lang } = ctx;
    const nav = navOf(s, 'developers', 'keys');
    if (!roleAllows(s.role, 'keys:manage'))
      return send(res, 403, page({ lang, t, title: t.keys, nav, body: '', message: { kind: 'error', text: t.forbidden } }));
    const listed = await account('GET', '/company/api-keys', undefined, asMember(req, res, s), ApiKeyList);
    const keys = listed.ok ? listed.body.api_keys : [];
    const date = (v: unknown) =>
      typeof v === 'string'
        ? esc(new Date(v).toLocaleString(lang === 'de' ? 'de-DE' : 'en-GB', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' }))
        : `<span class="muted">${esc(t.never)}</span>`;
    const name = t.keyName.split(' (')[0]!;
    const rows = keys
      .map(
        (k) =>
          `<tr>${td(name, esc(k.name))}${td(t.prefix, `<code>${esc(k.prefix)}…</code>`)}${td(t.role, esc(t.roles[k.role] ?? k.role))}${td(t.mode, `<span class="badge${k.mode === 'test' ? ' off' : ''}">${esc(k.mode === 'test' ? 'Test' : 'Live')}</span>`)}${td(t.created, date(k.created_at))}${td(t.lastUsed, date(k.last_used_at))}` +
          td(
            t.status,
            k.active
              ? `<span class="badge">${esc(t.active)}</span>`
              : `<span class="badge off">${esc(k.revoked_reason === 'plan_downgrade' ? t.deactivated : t.revoked)}</span>`,
          ) +
          `<td>${k.active ? `<a href="/app/keys/${esc(k.id)}/revoke" aria-label="${esc(t.revoke)}: ${esc(k.name)}">${esc(t.revoke)}</a>` : ''}</td></tr>`,
      )
      .join('\n');
    const selected = form?.role || 'admin';
    const roleOptions = ROLES.filter((r) => r !== 'owner' || s.role === 'owner')
      .map((r) => `<option value="${r}"${r === selected ? ' selected' : ''}>${esc(t.roles[r])}</option>`)
      .join('');
    const selectedMode = form?.mode === 'test' ? 'test' : 'live';
    const modeOptions = (['live', 'test'] as const)
      .map((m) => `<option value="${m}"${m === selectedMode ? ' selected' : ''}>${esc(t.modes[m]!)}</option>`)
      .join('');
    const secretBox = message?.secret
      ? `<section class="card secret-box" aria-labelledby="secret-h"><h2 id="secret-h">${esc(t.secretOnce)}</h2><code class="secret" id="secret">${esc(message.secret)}</code>
<button type="button" class="secondary" data-copy="secret" data-done="${esc(t.copied)}">${esc(t.copy)}</button></section>`
      : '';
    const table = keys.length
      ? `<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(t.keys)}</caption><thead><tr><th scope="col">${esc(name)}</th><th scope="col">${esc(t.prefix)}</th><th scope="col">${esc(t.role)}</th><th scope="col">${esc(t.mode)}</th><th scope="col">${esc(t.created)}</th><th scope="col">${esc(t.lastUsed)}</th><th scope="col">${esc(t.status)}</th><th scope="col"><span class="sr-only">${esc(t.revoke)}</span></th></tr></thead><tbody>${rows}</tbody></table></div>`
      : `<p class="muted">${esc(t.noKeys)}</p>`;
    send(
      res,
      status,
      page({
        lang,
        t,
        title: t.keys,
        nav,
        message: message && { kind: message.kind, text: message.text },
        body: `${secretBox}<section class="card" aria-labelledby="new-key-h"><h2 id="new-key-h">${esc(t.newKey)}</h2><form class="inline" method="post" action="/app/keys"><input type="hidden" name="csrf" value="${esc(s.csrf)}">
<label for="name">${esc(t.keyName)}</label><input class="field" id="name" name="name" required maxlength="100" value="${esc(form?.name ?? '')}">
<label for="role">${esc(t.role)}</label><select class="field" id="role" name="role">${roleOptions}</select>
<label for="mode">${esc(t.mode)}</label><select class="field" id="mode" name="mode">${modeOptions}</select>
<button type="submit">${esc(t.createKey)}</button></form></section>${table}`,
      }),
    );
  }

  router.get('/keys', async (req, res) => {
    const ctx = await signedIn(req, res, false);
    if (ctx) await keysPage(req, res, ctx, 200, await kit.takeFlash(req, res));
  });
  router.post('/keys', async (req, res) => {
    const ctx = await signedIn(req, res, true);
    if (!ctx) return;
    // the API's permission check for the API call this form makes (account-service checks it again)
    if (missingPermission(ctx.s.role, 'POST', '/company/api-keys'))
      return keysPage(req, res, ctx, 403, { kind: 'error', text: ctx.t.forbidden });
    const input = { name: field(req, 'name'), role: field(req, 'role'), mode: field(req, 'mode') };
    const created = await account(
      'POST',
      '/company/api-keys',
      { name: input.name, role: input.role || undefined, mode: input.mode || undefined },
      asMember(req, res, ctx.s),
      CreatedApiKey,
    );
    if (created.ok)
      return redirectWith(req, res, '/app/keys', {
        kind: 'ok',
        text: fill(ctx.t.keyCreated, { name: created.body.name }),
        secret: created.body.key,
      });
    // refused: the form again, filled in as sent (nothing was done, so nothing repeats on a reload)
    await keysPage(
      req,
      res,
      ctx,
      created.status >= 500 ? 502 : created.status,
      { kind: 'error', text: problemMessage(ctx.lang, created.status, created.body) },
      input,
    );
  });
  router.get('/keys/:id/revoke', async (req, res) => {
    const ctx = await signedIn(req, res, false);
    if (!ctx) return;
    const { s, t, lang } = ctx;
    const listed = await account('GET', '/company/api-keys', undefined, asMember(req, res, s), ApiKeyList);
    const key = listed.ok ? listed.body.api_keys.find((k) => k.id === req.params.id && k.active) : undefined;
    if (!key) return res.redirect(303, '/app/keys');
    send(
      res,
      200,
      page({
        lang,
        t,
        title: t.revoke,
        nav: navOf(s, 'developers', 'keys'),
        body: `<div class="card narrow"><form method="post" action="/app/keys/${esc(key.id)}/revoke"><input type="hidden" name="csrf" value="${esc(s.csrf)}">
<p class="lead">${esc(fill(t.revokeConfirm, { name: key.name }))}</p><p class="actions"><button type="submit" class="danger">${esc(t.revoke)}</button> <a class="button secondary" href="/app/keys">${esc(t.cancel)}</a></p></form></div>`,
      }),
    );
  });
  router.post('/keys/:id/revoke', async (req, res) => {
    const ctx = await signedIn(req, res, true);
    if (!ctx) return;
    if (missingPermission(ctx.s.role, 'DELETE', '/company/api-keys/x'))
      return keysPage(req, res, ctx, 403, { kind: 'error', text: ctx.t.forbidden });
    const revoked = await account(
      'DELETE',
      `/company/api-keys/${encodeURIComponent(req.params.id)}`,
      undefined,
      asMember(req, res, ctx.s),
      MessageBody,
    );
    if (revoked.ok) return redirectWith(req, res, '/app/keys', { kind: 'ok', text: ctx.t.keyRevoked });
    await keysPage(req, res, ctx, revoked.status >= 500 ? 502 : revoked.status, {
      kind: 'error',
      text: problemMessage(ctx.lang, revoked.status, revoked.body),
    });
  });
}
