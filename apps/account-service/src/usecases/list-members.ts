import type { CompanyId } from '@inv/contracts';
import { presentMember } from '../http/presenters';
import { type MemberDeps } from '../support/member-rules';

export async function listMembers(deps: Pick<MemberDeps, 'members'>, companyId: CompanyId) {
  return (await deps.members.list(companyId)).map(presentMember);
}
