import { Types } from 'mongoose';
import { z } from 'zod';
import { asCompanyId } from '@inv/contracts';
import { parseInput, unauthenticated } from '@inv/service-kit';
import type { SignInDeps } from './sign-in-member';

/** The member as it is now (the web app checks its session on every page: a removed member is signed out, a changed role applies). */
export async function currentMember(deps: Pick<SignInDeps, 'members' | 'companies'>, body: unknown) {
  const input = parseInput(z.object({ companyId: z.string().min(1).max(100), memberId: z.string().regex(/^[0-9a-f]{24}$/) }), body);
  // an internal route: the company is the one of the web app's signed-in session, which asks about its own member
  const companyId = asCompanyId(input.companyId);
  const member = await deps.members.byId(companyId, new Types.ObjectId(input.memberId));
  if (!member || member.status !== 'active') throw unauthenticated('the member no longer exists');
  const company = await deps.companies.byId(companyId);
  return { role: member.role, plan: company?.plan ?? 'free', companyName: company?.name ?? input.companyId };
}
