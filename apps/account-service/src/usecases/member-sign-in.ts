import { Types } from 'mongoose';
import { z } from 'zod';
import type { Changes } from '@inv/outbox';
import { eventMessage } from '@inv/runtime';
import { AppError, parseInput, unauthenticated } from '@inv/service-kit';
import type { CompaniesRepo } from '../db/companies';
import type { MembersRepo } from '../db/members';
import { hashInvitationToken } from '../domain/invitation';
import { dummyHash, hashPassword, PASSWORD_MAX, PASSWORD_MIN, verifyPassword } from '../domain/password';

export interface SignInDeps {
  commit: Changes['commit'];
  members: MembersRepo;
  companies: CompaniesRepo;
  now: () => Date;
}

const Password = z.string().min(PASSWORD_MIN, `at least ${PASSWORD_MIN} characters`).max(PASSWORD_MAX);
export const AcceptInvitation = z.object({
  token: z.string().regex(/^[\w-]{43}$/, 'the token of the invitation link'),
  password: Password,
});
export const SignIn = z.object({ email: z.string().trim().toLowerCase().email().max(254), password: z.string().min(1).max(PASSWORD_MAX) });

/**
 * Accepts an invitation (the link's token, single use, within 7 days) and sets the member's password
 * (argon2id). Answers who the member now is, for the web app's session.
 */
export async function acceptInvitation(deps: SignInDeps, body: unknown) {
  const input = parseInput(AcceptInvitation, body);
  const passwordHash = await hashPassword(input.password);
  const member = await deps.commit(async (session, emit) => {
    const accepted = await deps.members.acceptInvitation(hashInvitationToken(input.token), passwordHash, deps.now(), session);
    if (accepted) emit(eventMessage('member.joined.v1', accepted.companyId, { memberId: String(accepted._id) }));
    return accepted;
  });
  if (!member)
    throw new AppError('not_found', 'the invitation link is unknown, used or expired; ask for a new invitation', { code: 'NOT_FOUND' });
  return { companyId: member.companyId, memberId: String(member._id), role: member.role, email: member.email };
}

/** The member as it is now (the web app checks its session on every page: a removed member is signed out, a changed role applies). */
export async function currentMember(deps: Pick<SignInDeps, 'members' | 'companies'>, body: unknown) {
  const input = parseInput(z.object({ companyId: z.string().min(1).max(100), memberId: z.string().regex(/^[0-9a-f]{24}$/) }), body);
  const member = await deps.members.byId(input.companyId, new Types.ObjectId(input.memberId));
  if (!member || member.status !== 'active') throw unauthenticated('the member no longer exists');
  const company = await deps.companies.byId(input.companyId);
  return { role: member.role, plan: company?.plan ?? 'free', companyName: company?.name ?? input.companyId };
}

/**
 * E-mail and password -> the member's companies (one member per company with that address). Any failure
 * is the same 401, and an unknown address costs as much time as a wrong password.
 */
export async function signIn(deps: SignInDeps, body: unknown) {
  const input = parseInput(SignIn, body);
  const candidates = (await deps.members.allByEmail(input.email)).filter((m) => m.passwordHash);
  if (!candidates.length) {
    await verifyPassword(await dummyHash(), input.password);
    throw unauthenticated('wrong e-mail address or password');
  }
  const ok = [];
  for (const m of candidates) if (await verifyPassword(m.passwordHash!, input.password)) ok.push(m);
  if (!ok.length) throw unauthenticated('wrong e-mail address or password');
  return {
    memberships: await Promise.all(
      ok.map(async (m) => {
        const company = await deps.companies.byId(m.companyId);
        return {
          companyId: m.companyId,
          companyName: company?.name ?? m.companyId,
          memberId: String(m._id),
          role: m.role,
          plan: company?.plan ?? 'free',
        };
      }),
    ),
  };
}
