import { SessionRefresh } from '@inv/contracts';
import { parseInput, unauthenticated } from '@inv/service-kit';
import type { MembersRepo } from '../db/members';
import { hashMemberToken } from '../domain/member-token';
import { issueMemberAccess, type MemberAccessDeps } from './issue-member-access';

/**
 * POST /auth/sessions/refresh: a new access token of a session that still holds, for a member who still is one (with
 * the role as it is now, in the mode asked for). Anything else is the same 401: the dashboard signs the browser out.
 */
export async function refreshMemberSession(deps: MemberAccessDeps & { members: MembersRepo }, body: unknown) {
  const input = parseInput(SessionRefresh, body);
  const session = await deps.sessions.liveSessionByHashAcrossCompanies(hashMemberToken(input.session_token), deps.now());
  const member = session && (await deps.members.byId(session.companyId, session.memberId));
  if (!session || !member || member.status !== 'active') throw unauthenticated('the session has ended; sign in again');
  return issueMemberAccess(deps, session, member, input.mode);
}
