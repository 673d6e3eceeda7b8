import { z } from 'zod';

const Timestamp = z.string().meta({ description: 'ISO 8601 date-time (UTC)', example: '2026-11-29T10:15:00.000Z' });
const Email = z.string().trim().toLowerCase().email().max(254).meta({ example: 'anna@example.com' });
const Password = z.string().min(1).max(200).meta({ description: 'the member’s password' });
const SessionToken = z
  .string()
  .regex(/^ms_[0-9a-f]{64}$/, 'the session_token POST /auth/sessions answered (ms_ and 64 hexadecimal characters)')
  .meta({
    description: 'the member session’s secret (`ms_` + 64 hex), as POST /auth/sessions answered it',
    example: `ms_${'4f'.repeat(32)}`,
  });
const InvitationToken = z
  .string()
  .regex(/^[\w-]{43}$/, 'the token of the invitation link (43 characters)')
  .meta({ description: 'the token of the e-mail’s link (after `#token=`)', example: 'q3v9Xh2LcT0pWbN8yRk4sUe7mAf1JdGzC5oYiV6nB_w' });
const NewPassword = z.string().min(12).max(200).meta({ description: 'at least 12 characters', example: 'correct horse battery staple' });
const Mode = z.enum(['live', 'test']).meta({ description: 'live data, or the company’s test twin (docs/test-mode.md)' });

/**
 * POST /auth/sessions: a member signs in with e-mail address and password. The answer is a member session (8 hours)
 * and a short-lived access token (5 minutes) that authenticates API requests like an API key
 * (`Authorization: Bearer mt_…`), with the member's role. The dashboard signs in this way.
 */
export const SessionCreate = z
  .object({
    email: Email,
    password: Password,
    company_id: z.string().min(1).max(100).optional().meta({ description: 'which company, for an address that is a member of several' }),
    mode: Mode.default('live'),
  })
  .strict()
  .meta({ id: 'SessionCreate' });

/** POST /auth/sessions/refresh: a new access token of a member session (with the member's role as it is now). */
export const SessionRefresh = z
  .object({ session_token: SessionToken, mode: Mode.default('live') })
  .strict()
  .meta({ id: 'SessionRefresh' });

/** POST /auth/sessions/revoke: signs out (the session and its access tokens stop working). */
export const SessionRevoke = z.object({ session_token: SessionToken }).strict().meta({ id: 'SessionRevoke' });

/** POST /auth/invitations/lookup: whom an invitation link invites. */
export const InvitationLookup = z.object({ token: InvitationToken }).strict().meta({ id: 'InvitationLookup' });

/** POST /auth/invitations/accept: the invited address sets its password and is signed in. */
export const InvitationAccept = z.object({ token: InvitationToken, password: NewPassword }).strict().meta({ id: 'InvitationAccept' });

/** POST /auth/password-resets: asks for a reset link by e-mail (always 202: it never tells whether the address is known). */
export const PasswordResetRequest = z.object({ email: Email }).strict().meta({ id: 'PasswordResetRequest' });

/** POST /auth/password-resets/confirm: sets a new password with the link's token; every session of the member ends. */
export const PasswordResetConfirm = z
  .object({ token: InvitationToken, password: NewPassword })
  .strict()
  .meta({ id: 'PasswordResetConfirm' });

/** A member session: its secret (only when it is created), the current access token and whom it is for. */
export const MemberSession = z
  .object({
    session_token: SessionToken.optional(),
    session_expires_at: Timestamp,
    access_token: z
      .string()
      .regex(/^mt_[0-9a-f]{64}$/)
      .meta({ description: 'send as `Authorization: Bearer <access_token>`', example: `mt_${'a1'.repeat(32)}` }),
    access_expires_at: Timestamp,
    mode: Mode,
    member: z.object({ id: z.string(), email: z.string(), role: z.string() }),
    company: z.object({ id: z.string(), name: z.string(), plan: z.string() }),
  })
  .meta({ id: 'MemberSession' });
export type MemberSession = z.output<typeof MemberSession>;

/** Whom an invitation invites. */
export const InvitationInfo = z.object({ company_name: z.string(), email: z.string(), role: z.string() }).meta({ id: 'InvitationInfo' });

export const MEMBER_ACCESS_TOKEN = /^mt_[0-9a-f]{64}$/;
export const MEMBER_SESSION_TOKEN = /^ms_[0-9a-f]{64}$/;
