import type { CompanyId, Role } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { notFound } from '@inv/service-kit';
import { idOf, lastOwner, type MemberDeps, ownersOnly } from '../support/member-rules';

/** Removes a member (an open invitation stops working with it); never the last owner (409 LAST_OWNER). */
export async function removeMember(deps: MemberDeps, companyId: CompanyId, id: string, callerRole: Role) {
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
