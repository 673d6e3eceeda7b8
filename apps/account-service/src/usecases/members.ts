import { Types } from 'mongoose';
import type { MemberInvite, Role } from '@inv/contracts';
import type { Changes } from '@inv/outbox';
import { commandMessage, eventMessage } from '@inv/runtime';
import { AppError, conflict, notFound } from '@inv/service-kit';
import type { CompaniesRepo } from '../db/companies';
import type { MemberDoc, MembersRepo } from '../db/members';
import { INVITATION_TTL_MS, invitationMail, newInvitationToken } from '../domain/invitation';

export interface MemberDeps {
  commit: Changes['commit'];
  members: MembersRepo;
  companies: CompaniesRepo;
  /** Sender of the invitation e-mails. */
  mailFrom: string;
  /** Base URL of the web app (invitation links point to `${appUrl}/accept-invitation`). */
  appUrl: string;
  now: () => Date;
}

export const presentMember = (m: MemberDoc) => ({
  id: String(m._id),
  email: m.email,
  role: m.role,
  status: m.status,
  created_at: m.createdAt.toISOString(),
  invitation_expires_at: m.invitationExpiresAt?.toISOString() ?? null,
});

const ownersOnly = (what: string) =>
  new AppError('forbidden', `only an owner may ${what}`, { code: 'FORBIDDEN', extra: { missing_permission: 'owner' } });
const lastOwner = () => conflict('a company always keeps at least one owner: make another member owner first', 'LAST_OWNER');
const idOf = (id: string) => {
  if (!Types.ObjectId.isValid(id)) throw notFound('member');
  return new Types.ObjectId(id);
};

export async function listMembers(deps: Pick<MemberDeps, 'members'>, companyId: string) {
  return (await deps.members.list(companyId)).map(presentMember);
}

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

/**
 * Changes a member's role. Only an owner may make someone owner or change an owner's role; the last owner
 * keeps the role (409 LAST_OWNER). The company's member revision is bumped first in the same transaction,
 * before the members are read, so two concurrent demotions of the last two owners cannot both pass: the
 * second write of the company document conflicts, and its retry reads the members as the first left them.
 */
export async function changeMemberRole(deps: MemberDeps, companyId: string, id: string, role: Role, callerRole: Role) {
  const memberId = idOf(id);
  return deps.commit(async (session, emit) => {
    // first: the bump takes the company's member lock before anything is read (see bumpMembersRev)
    await deps.companies.bumpMembersRev(companyId, session);
    const member = await deps.members.byId(companyId, memberId, session);
    if (!member) throw notFound('member');
    if ((role === 'owner' || member.role === 'owner') && callerRole !== 'owner')
      throw ownersOnly("make someone owner or change an owner's role");
    if (member.role === role) return presentMember(member);
    if (member.role === 'owner' && (await deps.members.countOwners(companyId, session)) <= 1) throw lastOwner();
    const updated = await deps.members.setRole(companyId, memberId, role, session);
    emit(eventMessage('member.role-changed.v1', companyId, { memberId: id, role, previousRole: member.role }));
    return presentMember(updated!);
  });
}

/** Removes a member (an open invitation stops working with it); never the last owner (409 LAST_OWNER). */
export async function removeMember(deps: MemberDeps, companyId: string, id: string, callerRole: Role) {
  const memberId = idOf(id);
  await deps.commit(async (session, emit) => {
    await deps.companies.bumpMembersRev(companyId, session);
    const member = await deps.members.byId(companyId, memberId, session);
    if (!member) throw notFound('member');
    if (member.role === 'owner' && callerRole !== 'owner') throw ownersOnly('remove an owner');
    if (member.role === 'owner' && (await deps.members.countOwners(companyId, session)) <= 1) throw lastOwner();
    await deps.members.remove(companyId, memberId, session);
    emit(eventMessage('member.removed.v1', companyId, { memberId: id, role: member.role }));
  });
}
