import type { Request, Response } from 'express';
import { missingPermission } from '@inv/contracts';
import { esc, page, type NavKey, type PageOpts } from './html';
import type { Lang, Texts } from './i18n';
import type { As, PageAnswer, PageCaller, RawCaller } from './api-client';
import { problemMessage } from './problems';
import type { Flash, Session, SessionStore } from './sessions';
import type { WebDeps } from '../deps';

/** A signed-in page's context: the session as it is now (its access token fresh), the texts and the language. */
export type Ctx = { s: Session; t: Texts; lang: Lang };

/**
 * What every page of the dashboard is built from (web.routes.ts builds it once). A page module exports
 * `registerXPages(router, kit)`; it reads and acts only through `api`/`raw` (the public API, as the member), renders
 * with `render`, and checks a role with `may` before it shows an action (the API checks again: a refused action is
 * a 403 page in the page's language, `refuse`).
 */
export interface PagesKit {
  deps: WebDeps;
  sessions: SessionStore;
  langOf(req: Request, res: Response): Lang;
  send(res: Response, status: number, html: string): void;
  sameOrigin(req: Request): boolean;
  /** A form field's value (urlencoded forms), '' when absent. */
  field(req: Request, name: string): string;
  /** The public API as JSON: `api(method, '/invoice/?status=OPEN', body, kit.asMember(req, res, s), Schema)`. */
  api: PageCaller;
  /** The public API for files (downloads of PDFs, XML, ZIP; uploads): the gateway's response as it came. */
  raw: RawCaller;
  /** Who the page calls the API as (the member's access token); a form POST passes its idempotency key. */
  asMember(req: Request, res: Response, s: Session, idempotencyKey?: string): As;
  /** The session as it is now, or undefined after a redirect to sign-in (or a 403 page for a POST without CSRF/origin). */
  signedIn(req: Request, res: Response, post: boolean): Promise<Ctx | undefined>;
  /** Post/Redirect/Get: a message (and a secret shown once) for the page `to`, then 303. */
  redirectWith(req: Request, res: Response, to: string, flash: Flash): Promise<void>;
  takeFlash(req: Request, res: Response): Promise<Flash | undefined>;
  nav(s: Session, current: NavKey, sub?: string): NonNullable<PageOpts['nav']>;
  /** A whole signed-in page: frame, navigation (with `current` and the sub-page `sub`), message. */
  render(
    res: Response,
    ctx: Ctx,
    o: { status?: number; title: string; current: NavKey; sub?: string; body: string; message?: Flash },
  ): void;
  /** May the member's role do this API call? (the same table the gateway enforces) */
  may(ctx: Ctx, method: string, apiPath: string): boolean;
  /** The 403 page in the page's language for an action the role may not do. */
  refuse(res: Response, ctx: Ctx, o: { title: string; current: NavKey; sub?: string }): void;
  /** The sentence a page shows for an API refusal, in its language. */
  problem(ctx: Ctx, answer: Extract<PageAnswer<unknown>, { ok: false }>): string;
}

/** The roles a key or a member can be given (owner only by an owner). */
export const ROLES = ['admin', 'member', 'viewer', 'owner'];

/** A table cell that names its column (the table turns into cards on a narrow screen). */
export const td = (label: string, html: string) => `<td data-label="${esc(label)}">${html}</td>`;

/** Builds the render/may/refuse/problem helpers on top of the frame (used by web.routes.ts and the page tests). */
export function pageHelpers(send: PagesKit['send'], nav: PagesKit['nav']): Pick<PagesKit, 'render' | 'may' | 'refuse' | 'problem'> {
  const render: PagesKit['render'] = (res, ctx, o) =>
    send(
      res,
      o.status ?? 200,
      page({
        lang: ctx.lang,
        t: ctx.t,
        title: o.title,
        nav: nav(ctx.s, o.current, o.sub),
        body: o.body,
        message: o.message && { kind: o.message.kind, text: o.message.text },
      }),
    );
  return {
    render,
    may: (ctx, method, apiPath) => !missingPermission(ctx.s.role, method, apiPath),
    refuse: (res, ctx, o) => render(res, ctx, { ...o, status: 403, body: '', message: { kind: 'error', text: ctx.t.forbidden } }),
    problem: (ctx, answer) => problemMessage(ctx.lang, answer.status, answer.body),
  };
}
