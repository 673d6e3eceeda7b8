import { unauthenticated } from '@inv/service-kit';
import type { CompaniesRepo } from '../db/companies';
import type { MembersRepo } from '../db/members';
import type { MemberSessionsRepo } from '../db/member-sessions';
import { hashMemberToken, isAccessToken, sessionKeyId } from '../domain/member-token';

/**
 * A member's access token (`mt_…`) -> whom the gateway lets the request act as: the member's company (live; the
 * gateway turns a test-mode token's into the test twin), the member and the role as it is now. The plan does not
 * gate it: the dashboard works on every plan. Any failure is the same 401.
 */
export async function verifyAccessToken(
  deps: { sessions: MemberSessionsRepo; members: MembersRepo; companies: CompaniesRepo; now: () => Date },
  token: string,
) {
  if (!isAccessToken(token)) throw unauthenticated();
  const found = await deps.sessions.liveTokenByHashAcrossCompanies(hashMemberToken(token), deps.now());
  const member = found && (await deps.members.byId(found.companyId, found.memberId));
  if (!found || !member || member.status !== 'active') throw unauthenticated();
  const company = await deps.companies.byId(found.companyId);
  if (!company) throw unauthenticated();
  return {
    companyId: found.companyId,
    keyId: sessionKeyId(String(found.sessionId)),
    memberId: String(found.memberId),
    role: member.role,
    plan: company.plan,
    mode: found.mode,
    expiresAt: found.expiresAt.toISOString(),
  };
}
