import type { CompanyId, MemberInvite, Role } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { conflict, notFound } from '@inv/service-kit';
import { INVITATION_TTL_MS, newInvitation } from '../domain/invitation';
import { presentMember } from '../http/presenters';
import { type MemberDeps, ownersOnly } from '../support/member-rules';

/**
 * Invites `email` with `role`: the member is listed as invited, and member.invited.v1 is written with it (outbox).
 * account-service's own consumer of that event renders the e-mail with its single-use link (valid 7 days) and
 * sends it through the mail module (consumers/invitation-mail.ts): the token is in no document, the outbox included.
 */
export async function inviteMember(deps: MemberDeps, companyId: CompanyId, input: MemberInvite, callerRole: Role) {
  if (input.role === 'owner' && callerRole !== 'owner') throw ownersOnly('invite an owner');
  const company = await deps.companies.byId(companyId);
  if (!company) throw notFound('company');
  const { nonce, hash } = newInvitation(deps.linkKeys[0]!);
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  try {
    return await deps.commit(async (session, emit) => {
      const member = await deps.members.insert(
        {
          companyId,
          email: input.email,
          role: input.role,
          status: 'invited',
          invitationHash: hash,
          invitationNonce: nonce,
          invitationExpiresAt: expiresAt,
          createdAt: now,
        },
        session,
      );
      emit(eventMessage('member.invited.v1', companyId, { memberId: String(member._id), role: input.role }));
      return presentMember(member);
    });
  } catch (err) {
    if ((err as { code?: number }).code === 11000)
      throw conflict(`${input.email} is already a member of the company or invited`, 'MEMBER_EXISTS');
    throw err;
  }
}
