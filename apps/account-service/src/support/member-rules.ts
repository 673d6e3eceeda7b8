import { Types } from 'mongoose';
import type { Changes } from '@inv/outbox';
import { AppError, conflict, notFound } from '@inv/service-kit';
import type { CompaniesRepo } from '../db/companies';
import type { MembersRepo } from '../db/members';

export interface MemberDeps {
  commit: Changes['commit'];
  members: MembersRepo;
  companies: CompaniesRepo;
  /** Keys invitation tokens are derived with (the first makes new ones; domain/invitation.ts). */
  linkKeys: readonly string[];
  now: () => Date;
}

export const ownersOnly = (what: string) =>
  new AppError('forbidden', `only an owner may ${what}`, { code: 'FORBIDDEN', extra: { missing_permission: 'owner' } });
export const lastOwner = () => conflict('a company always keeps at least one owner: make another member owner first', 'LAST_OWNER');
export const idOf = (id: string) => {
  if (!Types.ObjectId.isValid(id)) throw notFound('member');
  return new Types.ObjectId(id);
};
