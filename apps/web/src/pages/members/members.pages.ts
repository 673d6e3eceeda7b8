import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { Member, roleAllows } from '@inv/contracts';
import { esc, fill, page } from '../../kit/html';
import { ROLES, td, type Ctx, type PagesKit } from '../../kit/pages-kit';
import { problemMessage } from '../../kit/problems';
import type { Flash } from '../../kit/sessions';
import { texts as memberTexts } from './texts';

/**
 * The company's members in the web app: everyone may list them; `members:manage` may invite (account-service mails the
 * link), change a member's role (PUT /members/{id}) and remove a member after a confirmation (DELETE /members/{id}).
 * Owners are an owner's business: others see no action on an owner's row and cannot give the owner role (the API
 * answers the same, and keeps the last owner: LAST_OWNER).
 */
/** GET /members/ */
const MemberList = z.object({ members: z.array(Member) });
/** A member's id in a URL (a MongoDB ObjectId): anything else is a 404 page without an API call. */
const MEMBER_ID = /^[0-9a-f]{24}$/;
const Answer = z.unknown();

export function registerMemberPages(router: Router, kit: PagesKit): void {
  const { send, field, api: account, asMember, signedIn, redirectWith, nav: navOf } = kit;
  async function membersPage(
    req: Request,
    res: Response,
    ctx: Ctx,
    status: number,
    message?: Flash,
    form?: { email: string; role: string },
  ) {
    const { s, t, lang } = ctx;
    const listed = await account('GET', '/members/', undefined, asMember(req, res, s), MemberList);
    const canInvite = roleAllows(s.role, 'members:manage');
    const mt = memberTexts[lang];
    /** A manager's actions on one member: the role select and a link to the removal's confirmation. */
    const actionsOf = (m: z.output<typeof Member>) => {
      if (!MEMBER_ID.test(m.id) || (m.role === 'owner' && s.role !== 'owner')) return '';
      const options = ROLES.filter((r) => r !== 'owner' || s.role === 'owner')
        .map((r) => `<option value="${r}"${r === m.role ? ' selected' : ''}>${esc(t.roles[r])}</option>`)
        .join('');
      return `<div class="row-actions member-actions"><form method="post" action="/app/members/${m.id}/role"><input type="hidden" name="csrf" value="${esc(s.csrf)}"><label class="sr-only" for="role-${m.id}">${esc(fill(mt.roleFor, { email: m.email }))}</label><select id="role-${m.id}" name="role">${options}</select> <button type="submit" class="secondary">${esc(mt.changeRole)}</button></form><a class="button secondary" href="/app/members/${m.id}/remove">${esc(mt.remove)}<span class="sr-only"> ${esc(m.email)}</span></a></div>`;
    };
    const rows = (listed.ok ? listed.body.members : [])
      .map(
        (m) =>
          `<tr>${td(t.email, `<span class="long">${esc(m.email)}</span>`)}${td(t.role, esc(t.roles[m.role] ?? m.role))}${td(
            t.status,
            m.status === 'invited' ? `<span class="badge off">${esc(t.invited)}</span>` : `<span class="badge">${esc(t.active)}</span>`,
          )}${canInvite ? td(mt.actions, actionsOf(m)) : ''}</tr>`,
      )
      .join('\n');
    const selected = form?.role || 'member';
    const roleOptions = ROLES.filter((r) => r !== 'owner' || s.role === 'owner')
      .map((r) => `<option value="${r}"${r === selected ? ' selected' : ''}>${esc(t.roles[r])}</option>`)
      .join('');
    const invite = canInvite
      ? `<section class="card" aria-labelledby="invite-h"><h2 id="invite-h">${esc(t.invite)}</h2><form class="inline" method="post" action="/app/members"><input type="hidden" name="csrf" value="${esc(s.csrf)}">
<label for="email">${esc(t.email)}</label><input class="field" id="email" name="email" type="email" required value="${esc(form?.email ?? '')}">
<label for="role">${esc(t.role)}</label><select class="field" id="role" name="role">${roleOptions}</select>
<button type="submit">${esc(t.invite)}</button></form></section>`
      : '';
    send(
      res,
      status,
      page({
        lang,
        t,
        title: t.members,
        nav: navOf(s, 'members'),
        message: message && { kind: message.kind, text: message.text },
        body: `${invite}<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(t.members)}</caption><thead><tr><th scope="col">${esc(t.email)}</th><th scope="col">${esc(t.role)}</th><th scope="col">${esc(t.status)}</th>${canInvite ? `<th scope="col">${esc(mt.actions)}</th>` : ''}</tr></thead><tbody>${rows}</tbody></table></div>`,
      }),
    );
  }
  router.get('/members', async (req, res) => {
    const ctx = await signedIn(req, res, false);
    if (ctx) await membersPage(req, res, ctx, 200, await kit.takeFlash(req, res));
  });
  router.post('/members', async (req, res) => {
    const ctx = await signedIn(req, res, true);
    if (!ctx) return;
    if (!roleAllows(ctx.s.role, 'members:manage')) return membersPage(req, res, ctx, 403, { kind: 'error', text: ctx.t.forbidden });
    const input = { email: field(req, 'email').trim().slice(0, 320), role: field(req, 'role') };
    const invited = await account(
      'POST',
      '/members/',
      { email: input.email, role: input.role || undefined },
      asMember(req, res, ctx.s),
      Member,
    );
    if (invited.ok)
      return redirectWith(req, res, '/app/members', {
        kind: 'ok',
        text: fill(ctx.t.invitationSent, { email: invited.body.email }),
      });
    await membersPage(
      req,
      res,
      ctx,
      invited.status >= 500 ? 502 : invited.status,
      { kind: 'error', text: problemMessage(ctx.lang, invited.status, invited.body) },
      input,
    );
  });

  /** The member with this id, from the list (the API has no single-member read); undefined when there is none. */
  const memberOf = async (req: Request, res: Response, ctx: Ctx, id: string) => {
    const listed = await account('GET', '/members/', undefined, asMember(req, res, ctx.s), MemberList);
    if (!listed.ok) return listed;
    return { ok: true as const, member: listed.body.members.find((m) => m.id === id) };
  };
  const notFoundPage = (res: Response, ctx: Ctx) => {
    const mt = memberTexts[ctx.lang];
    kit.render(res, ctx, {
      status: 404,
      title: mt.removeTitle,
      current: 'members',
      body: `<p><a href="/app/members">${esc(mt.backToMembers)}</a></p>`,
      message: { kind: 'error', text: mt.notFound },
    });
  };

  router.post('/members/:id/role', async (req, res) => {
    const ctx = await signedIn(req, res, true);
    if (!ctx) return;
    const id = req.params.id;
    if (!MEMBER_ID.test(id)) return notFoundPage(res, ctx);
    if (!kit.may(ctx, 'PUT', `/members/${id}`)) return kit.refuse(res, ctx, { title: ctx.t.members, current: 'members' });
    const role = field(req, 'role');
    if (!ROLES.includes(role)) return membersPage(req, res, ctx, 400, { kind: 'error', text: problemMessage(ctx.lang, 400, {}) });
    const changed = await account('PUT', `/members/${encodeURIComponent(id)}`, { role }, asMember(req, res, ctx.s), Member);
    if (changed.ok)
      return redirectWith(req, res, '/app/members', {
        kind: 'ok',
        text: fill(memberTexts[ctx.lang].roleChanged, {
          email: changed.body.email,
          role: ctx.t.roles[changed.body.role] ?? changed.body.role,
        }),
      });
    if (changed.status === 404) return notFoundPage(res, ctx);
    await membersPage(req, res, ctx, changed.status >= 500 ? 502 : changed.status, {
      kind: 'error',
      text: problemMessage(ctx.lang, changed.status, changed.body),
    });
  });

  router.get('/members/:id/remove', async (req, res) => {
    const ctx = await signedIn(req, res, false);
    if (!ctx) return;
    const mt = memberTexts[ctx.lang];
    const id = req.params.id;
    if (!MEMBER_ID.test(id)) return notFoundPage(res, ctx);
    if (!kit.may(ctx, 'DELETE', `/members/${id}`)) return kit.refuse(res, ctx, { title: mt.removeTitle, current: 'members' });
    const found = await memberOf(req, res, ctx, id);
    if (!found.ok)
      return kit.render(res, ctx, {
        status: found.status >= 500 ? 502 : found.status,
        title: mt.removeTitle,
        current: 'members',
        body: '',
        message: { kind: 'error', text: kit.problem(ctx, found) },
      });
    if (!found.member) return notFoundPage(res, ctx);
    kit.render(res, ctx, {
      title: mt.removeTitle,
      current: 'members',
      body: `<div class="card narrow"><form method="post" action="/app/members/${id}/remove"><input type="hidden" name="csrf" value="${esc(ctx.s.csrf)}">
<p class="lead">${esc(fill(mt.removeConfirm, { email: found.member.email }))}</p><p class="actions"><button type="submit" class="danger">${esc(mt.remove)}</button> <a class="button secondary" href="/app/members">${esc(mt.cancel)}</a></p></form></div>`,
    });
  });

  router.post('/members/:id/remove', async (req, res) => {
    const ctx = await signedIn(req, res, true);
    if (!ctx) return;
    const mt = memberTexts[ctx.lang];
    const id = req.params.id;
    if (!MEMBER_ID.test(id)) return notFoundPage(res, ctx);
    if (!kit.may(ctx, 'DELETE', `/members/${id}`)) return kit.refuse(res, ctx, { title: mt.removeTitle, current: 'members' });
    // the address for the message (the API's answer to DELETE names nobody)
    const found = await memberOf(req, res, ctx, id);
    const removed = await account('DELETE', `/members/${encodeURIComponent(id)}`, undefined, asMember(req, res, ctx.s), Answer);
    if (removed.ok)
      return redirectWith(req, res, '/app/members', {
        kind: 'ok',
        text: fill(mt.removed, { email: (found.ok && found.member?.email) || id }),
      });
    if (removed.status === 404) return notFoundPage(res, ctx);
    await membersPage(req, res, ctx, removed.status >= 500 ? 502 : removed.status, {
      kind: 'error',
      text: problemMessage(ctx.lang, removed.status, removed.body),
    });
  });
}
