import type { RpcRequestOf } from '@inv/runtime';
import type { ApiKeysRepo } from '../db/api-keys';
import type { CompaniesRepo } from '../db/companies';
import type { MembersRepo } from '../db/members';

/** Operator command: every company with its plan, members and active keys (oldest first). */
export async function onListCompanies(
  deps: { companies: CompaniesRepo; members: MembersRepo; apiKeys: ApiKeysRepo },
  msg: RpcRequestOf<'account.list-companies.v1'>,
) {
  const companies = await deps.companies.listAcrossCompanies(msg.data.limit);
  return {
    companies: await Promise.all(
      companies.map(async (c) => ({
        id: c._id,
        name: c.name,
        plan: c.plan,
        createdAt: c.createdAt.toISOString(),
        members: await deps.members.count(c._id),
        activeKeys: await deps.apiKeys.countActive(c._id),
      })),
    ),
  };
}
