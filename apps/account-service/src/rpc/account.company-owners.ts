import type { RpcRequestOf } from '@inv/runtime';
import type { MembersRepo } from '../db/members';

/** The addresses of the company's active owners (webhook-service tells them when it disables an endpoint). */
export async function onCompanyOwners(deps: { members: MembersRepo }, msg: RpcRequestOf<'account.company-owners.v1'>) {
  const owners = (await deps.members.list(msg.companyId)).filter((m) => m.role === 'owner' && m.status === 'active');
  return { found: owners.length > 0, emails: owners.map((m) => m.email) };
}
