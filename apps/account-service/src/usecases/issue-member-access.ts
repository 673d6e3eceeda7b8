import type { Types } from 'mongoose';
import type { CompanyId, MemberSession } from '@inv/contracts';
import type { CompaniesRepo } from '../db/companies';
import type { MemberDoc } from '../db/members';
import type { MemberSessionDoc, MemberSessionsRepo } from '../db/member-sessions';
import { hashMemberToken, MEMBER_ACCESS_TTL_MS, MEMBER_SESSION_TTL_MS, newAccessToken, newSessionToken } from '../domain/member-token';

export interface MemberAccessDeps {
  sessions: MemberSessionsRepo;
  companies: CompaniesRepo;
  now: () => Date;
}

/** A new member session for a member who just proved who they are (password, invitation): its secret is answered once. */
export async function openMemberSession(deps: MemberAccessDeps, member: MemberDoc, mode: 'live' | 'test'): Promise<MemberSession> {
  const now = deps.now();
  const secret = newSessionToken();
  const session = await deps.sessions.insertSession({
    companyId: member.companyId,
    memberId: member._id,
    tokenHash: hashMemberToken(secret),
    createdAt: now,
    expiresAt: new Date(now.getTime() + MEMBER_SESSION_TTL_MS),
  });
  return { ...(await issueMemberAccess(deps, session, member, mode)), session_token: secret };
}

/** A new access token of a session (never beyond the session's end), with the member's role as it is now. */
export async function issueMemberAccess(
  deps: MemberAccessDeps,
  session: MemberSessionDoc,
  member: MemberDoc,
  mode: 'live' | 'test',
): Promise<MemberSession> {
  const now = deps.now();
  const token = newAccessToken();
  const expiresAt = new Date(Math.min(now.getTime() + MEMBER_ACCESS_TTL_MS, session.expiresAt.getTime()));
  await deps.sessions.insertToken({
    sessionId: session._id,
    companyId: session.companyId,
    memberId: session.memberId,
    tokenHash: hashMemberToken(token),
    mode,
    expiresAt,
  });
  const company = await deps.companies.byId(session.companyId as CompanyId);
  return {
    session_expires_at: session.expiresAt.toISOString(),
    access_token: token,
    access_expires_at: expiresAt.toISOString(),
    mode,
    member: { id: String(member._id as Types.ObjectId), email: member.email, role: member.role },
    company: { id: session.companyId, name: company?.name ?? session.companyId, plan: company?.plan ?? 'free' },
  };
}
