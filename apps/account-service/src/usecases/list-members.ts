import type { CompanyId } from '@inv/contracts';
import { type MemberDeps, presentMember } from '../support/member-rules';

export async function listMembers(deps: Pick<MemberDeps, 'members'>, companyId: CompanyId) {
  return (await deps.members.list(companyId)).map(presentMember);
}
