import { createHash, randomBytes } from 'node:crypto';
import { MEMBER_ACCESS_TOKEN, MEMBER_SESSION_TOKEN } from '@inv/contracts';

/** How long a member stays signed in (the dashboard's session) ... */
export const MEMBER_SESSION_TTL_MS = 8 * 3600_000;
/** ... and how long one access token of it holds (renewed by the dashboard before it runs out). */
export const MEMBER_ACCESS_TTL_MS = 5 * 60_000;

/** A new member session secret (`ms_`) or access token (`mt_`): 256 random bits; only their SHA-256 is stored. */
export const newSessionToken = () => `ms_${randomBytes(32).toString('hex')}`;
export const newAccessToken = () => `mt_${randomBytes(32).toString('hex')}`;
export const hashMemberToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const isSessionToken = (v: unknown): v is string => typeof v === 'string' && MEMBER_SESSION_TOKEN.test(v);
export const isAccessToken = (v: unknown): v is string => typeof v === 'string' && MEMBER_ACCESS_TOKEN.test(v);

/** The key id a member session's requests carry (the gateway evicts its cached tokens by it when it ends). */
export const sessionKeyId = (sessionId: string) => `mses_${sessionId}`;

/** Failed sign-ins per address before it waits, and for how long the count is kept. */
export const SIGN_IN_FAILURES_MAX = 10;
export const SIGN_IN_FAILURE_WINDOW_MS = 15 * 60_000;
