import type { Request, Response } from 'express';
import type { Identity } from '@inv/service-kit';
import { esc, type PageOpts } from './html';
import type { Lang, Texts } from './i18n';
import type { PageCaller } from './account-client';
import type { Flash, Session, sessionStore } from './sessions';
import type { WebAppDeps } from './deps';

/** A signed-in page's context: the session as it is now, the texts and the language. */
export type Ctx = { s: Session; t: Texts; lang: Lang };

/** What the pages of the web app share (built once in webapp.routes.ts): the page frame, the session check, the calls. */
export interface PagesKit {
  deps: WebAppDeps;
  sessions: ReturnType<typeof sessionStore>;
  langOf(req: Request, res: Response): Lang;
  send(res: Response, status: number, html: string): void;
  sameOrigin(req: Request): boolean;
  field(req: Request, name: string): string;
  /** account-service, as the API calls it. */
  account: PageCaller;
  asMember(req: Request, res: Response, s: Session): Identity;
  internal(res: Response): Identity;
  signedIn(req: Request, res: Response, post: boolean): Promise<Ctx | undefined>;
  redirectWith(req: Request, res: Response, to: string, flash: Flash): Promise<void>;
  nav(s: Session, current: 'keys' | 'members' | 'webhooks'): NonNullable<PageOpts['nav']>;
}

/** The roles a key or a member can be given (owner only by an owner). */
export const ROLES = ['admin', 'member', 'viewer', 'owner'];

/** A table cell that names its column (the table turns into cards on a narrow screen). */
export const td = (label: string, html: string) => `<td data-label="${esc(label)}">${html}</td>`;
