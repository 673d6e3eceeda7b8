import { SessionRevoke } from '@inv/contracts';
import { parseInput } from '@inv/service-kit';
import type { MemberSessionsRepo } from '../db/member-sessions';
import { hashMemberToken, sessionKeyId } from '../domain/member-token';

/**
 * POST /auth/sessions/revoke: signs out. The session and its access tokens stop working, and every gateway drops
 * the tokens it verified (the same announcement as a revoked API key). Unknown or ended: nothing to do, also 204.
 */
export async function endMemberSession(
  deps: { sessions: MemberSessionsRepo; now: () => Date; announceRevoked: (keyId: string, companyId: string) => Promise<void> },
  body: unknown,
): Promise<void> {
  const input = parseInput(SessionRevoke, body);
  const session = await deps.sessions.liveSessionByHashAcrossCompanies(hashMemberToken(input.session_token), deps.now());
  if (!session) return;
  await deps.sessions.removeSession(session.companyId, session._id);
  await deps.announceRevoked(sessionKeyId(String(session._id)), session.companyId);
}
