import { Types } from 'mongoose';
import { asCompanyId, SessionCreate } from '@inv/contracts';
import { AppError, parseInput, unauthenticated } from '@inv/service-kit';
import type { SignInFailuresRepo } from '../db/sign-in-failures';
import { SIGN_IN_FAILURE_WINDOW_MS, SIGN_IN_FAILURES_MAX } from '../domain/member-token';
import { openMemberSession, type MemberAccessDeps } from './issue-member-access';
import { signIn, type SignInDeps } from './sign-in-member';

export type StartSessionDeps = SignInDeps & MemberAccessDeps & { failures: SignInFailuresRepo };

/**
 * POST /auth/sessions: e-mail address and password -> a member session and its first access token. Failures count
 * per address (SIGN_IN_FAILURES_MAX within 15 minutes, then 429 before any password is checked), on every replica.
 */
export async function startMemberSession(deps: StartSessionDeps, body: unknown) {
  const input = parseInput(SessionCreate, body);
  const now = deps.now();
  if ((await deps.failures.count(input.email, now)) >= SIGN_IN_FAILURES_MAX)
    throw new AppError('rate_limited', 'too many failed sign-ins for this address; wait 15 minutes or reset the password', {
      code: 'TOO_MANY_SIGN_IN_ATTEMPTS',
    });
  let memberships;
  try {
    ({ memberships } = await signIn(deps, { email: input.email, password: input.password }));
  } catch (err) {
    if (err instanceof AppError && err.kind === 'unauthenticated') await deps.failures.fail(input.email, now, SIGN_IN_FAILURE_WINDOW_MS);
    throw err;
  }
  await deps.failures.clear(input.email);
  const chosen = input.company_id ? memberships.find((m) => m.companyId === input.company_id) : memberships[0];
  const member = chosen && (await deps.members.byId(asCompanyId(chosen.companyId), new Types.ObjectId(chosen.memberId)));
  if (!member || member.status !== 'active') throw unauthenticated('wrong e-mail address or password');
  return openMemberSession(deps, member, input.mode);
}
