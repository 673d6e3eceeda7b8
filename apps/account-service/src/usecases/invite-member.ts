import type { MemberInvite, Role } from '@inv/contracts';
import { commandMessage, eventMessage } from '@inv/runtime';
import { conflict, notFound } from '@inv/service-kit';
import { INVITATION_TTL_MS, invitationMail, newInvitationToken } from '../domain/invitation';
import { type MemberDeps, ownersOnly, presentMember } from './member-rules';

/**
 * Invites `email` with `role`: the member is listed as invited, and an e-mail with a single-use link valid
 * for 7 days goes out through the mail module (mail.send.v1, in the same transaction as the member: outbox).
 */
export async function inviteMember(deps: MemberDeps, companyId: string, input: MemberInvite, callerRole: Role) {
  if (input.role === 'owner' && callerRole !== 'owner') throw ownersOnly('invite an owner');
  const company = await deps.companies.byId(companyId);
  if (!company) throw notFound('company');
  const { token, hash } = newInvitationToken();
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
          invitationExpiresAt: expiresAt,
          createdAt: now,
        },
        session,
      );
      const id = String(member._id);
      const mail = invitationMail({
        companyName: company.name,
        role: input.role,
        link: `${deps.appUrl}/accept-invitation#token=${token}`,
        expiresAt,
      });
      emit(
        eventMessage('member.invited.v1', companyId, { memberId: id, role: input.role }),
        commandMessage('mail.send.v1', companyId, {
          emailId: `invitation-${id}`,
          subjectRef: `member:${id}`,
          from: deps.mailFrom,
          to: [input.email],
          subject: mail.subject,
          text: mail.text,
        }),
      );
      return presentMember(member);
    });
  } catch (err) {
    if ((err as { code?: number }).code === 11000)
      throw conflict(`${input.email} is already a member of the company or invited`, 'MEMBER_EXISTS');
    throw err;
  }
}
