import { type MemberDeps, presentMember } from '../support/member-rules';

export async function listMembers(deps: Pick<MemberDeps, 'members'>, companyId: string) {
  return (await deps.members.list(companyId)).map(presentMember);
}
