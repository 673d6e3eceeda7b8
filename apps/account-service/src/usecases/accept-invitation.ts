import { z } from 'zod';
import { eventMessage } from '@inv/runtime';
import { AppError, parseInput } from '@inv/service-kit';
import { hashInvitationToken } from '../domain/invitation';
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN } from '../domain/password';
import type { SignInDeps } from './sign-in-member';

const Password = z.string().min(PASSWORD_MIN, `at least ${PASSWORD_MIN} characters`).max(PASSWORD_MAX);
export const AcceptInvitation = z.object({
  token: z.string().regex(/^[\w-]{43}$/, 'the token of the invitation link'),
  password: Password,
});

/**
 * Accepts an invitation (the link's token, single use, within 7 days) and sets the member's password
 * (argon2id). Answers who the member now is, for the web app's session.
 */
export async function acceptInvitation(deps: SignInDeps, body: unknown) {
  const input = parseInput(AcceptInvitation, body);
  const passwordHash = await hashPassword(input.password);
  const member = await deps.commit(async (session, emit) => {
    const accepted = await deps.members.acceptInvitationAcrossCompanies(
      hashInvitationToken(input.token),
      passwordHash,
      deps.now(),
      session,
    );
    if (accepted) emit(eventMessage('member.joined.v1', accepted.companyId, { memberId: String(accepted._id) }));
    return accepted;
  });
  if (!member)
    throw new AppError('not_found', 'the invitation link is unknown, used or expired; ask for a new invitation', { code: 'NOT_FOUND' });
  return { companyId: member.companyId, memberId: String(member._id), role: member.role, email: member.email };
}

/**
 * Whom an open invitation is for (the web app's invitation page names the company and the address): the company's
 * name, the invited e-mail address and the role for a token that would be accepted now; 404 for any other.
 */
export async function invitationDetails(deps: Pick<SignInDeps, 'members' | 'companies' | 'now'>, body: unknown) {
  const input = parseInput(AcceptInvitation.pick({ token: true }), body);
  const member = await deps.members.byInvitationHashAcrossCompanies(hashInvitationToken(input.token));
  const company =
    member && member.status === 'invited' && member.invitationExpiresAt! > deps.now() ? await deps.companies.byId(member.companyId) : null;
  if (!member || !company)
    throw new AppError('not_found', 'the invitation link is unknown, used or expired; ask for a new invitation', { code: 'NOT_FOUND' });
  return { companyName: company.name, email: member.email, role: member.role };
}
