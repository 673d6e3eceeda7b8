import type { CompanyId, Role } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { notFound } from '@inv/service-kit';
import { presentMember } from '../http/presenters';
import { idOf, lastOwner, type MemberDeps, ownersOnly } from '../support/member-rules';

/**
 * Changes a member's role. Only an owner may make someone owner or change an owner's role; the last owner
 * keeps the role (409 LAST_OWNER). The company's member revision is bumped first in the same transaction,
 * before the members are read, so two concurrent demotions of the last two owners cannot both pass: the
 * second write of the company document conflicts, and its retry reads the members as the first left them.
 */
export async function changeMemberRole(deps: MemberDeps, companyId: CompanyId, id: string, role: Role, callerRole: Role) {
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
