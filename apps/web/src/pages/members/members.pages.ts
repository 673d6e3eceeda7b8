import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { Member, roleAllows } from '@inv/contracts';
import { esc, fill, page } from '../../kit/html';
import { ROLES, td, type Ctx, type PagesKit } from '../../kit/pages-kit';
import { problemMessage } from '../../kit/problems';
import type { Flash } from '../../kit/sessions';

/** The company's members in the web app: everyone may list them; `members:manage` may invite (account-service mails the link). */
/** GET /members/ */
const MemberList = z.object({ members: z.array(Member) });

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
    const rows = (listed.ok ? listed.body.members : [])
      .map(
        (m) =>
          `<tr>${td(t.email, esc(m.email).replace('@', '@<wbr>'))}${td(t.role, esc(t.roles[m.role] ?? m.role))}${td(
            t.status,
            m.status === 'invited' ? `<span class="badge off">${esc(t.invited)}</span>` : `<span class="badge">${esc(t.active)}</span>`,
          )}</tr>`,
      )
      .join('\n');
    const canInvite = roleAllows(s.role, 'members:manage');
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
        body: `${invite}<div class="table-wrap" tabindex="0"><table class="cards"><caption class="sr-only">${esc(t.members)}</caption><thead><tr><th scope="col">${esc(t.email)}</th><th scope="col">${esc(t.role)}</th><th scope="col">${esc(t.status)}</th></tr></thead><tbody>${rows}</tbody></table></div>`,
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
}
