import { z } from 'zod';
import type { Changes } from '@inv/outbox';
import { parseInput, unauthenticated } from '@inv/service-kit';
import type { CompaniesRepo } from '../db/companies';
import type { MembersRepo } from '../db/members';
import { dummyHash, PASSWORD_MAX, verifyPassword } from '../domain/password';

export interface SignInDeps {
  commit: Changes['commit'];
  members: MembersRepo;
  companies: CompaniesRepo;
  now: () => Date;
}

export const SignIn = z.object({ email: z.string().trim().toLowerCase().email().max(254), password: z.string().min(1).max(PASSWORD_MAX) });

/**
 * E-mail and password -> the member's companies (one member per company with that address). Any failure
 * is the same 401, and an unknown address costs as much time as a wrong password.
 */
export async function signIn(deps: SignInDeps, body: unknown) {
  const input = parseInput(SignIn, body);
  const candidates = (await deps.members.allByEmailAcrossCompanies(input.email)).filter((m) => m.passwordHash);
  if (!candidates.length) {
    await verifyPassword(await dummyHash(), input.password);
    throw unauthenticated('wrong e-mail address or password');
  }
  const ok = [];
  for (const m of candidates) if (await verifyPassword(m.passwordHash!, input.password)) ok.push(m);
  if (!ok.length) throw unauthenticated('wrong e-mail address or password');
  return {
    memberships: await Promise.all(
      ok.map(async (m) => {
        const company = await deps.companies.byId(m.companyId);
        return {
          companyId: m.companyId,
          companyName: company?.name ?? m.companyId,
          memberId: String(m._id),
          role: m.role,
          plan: company?.plan ?? 'free',
        };
      }),
    ),
  };
}
