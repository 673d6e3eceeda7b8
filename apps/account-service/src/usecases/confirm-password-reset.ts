import { PasswordResetConfirm } from '@inv/contracts';
import type { Changes } from '@inv/outbox';
import { eventMessage } from '@inv/runtime';
import { AppError, parseInput } from '@inv/service-kit';
import type { MemberSessionsRepo } from '../db/member-sessions';
import type { MembersRepo } from '../db/members';
import type { PasswordResetsRepo } from '../db/password-resets';
import type { SignInFailuresRepo } from '../db/sign-in-failures';
import { sessionKeyId } from '../domain/member-token';
import { hashPassword } from '../domain/password';
import { hashPasswordResetToken } from '../domain/password-reset';

export interface ConfirmPasswordResetDeps {
  commit: Changes['commit'];
  members: MembersRepo;
  resets: PasswordResetsRepo;
  sessions: MemberSessionsRepo;
  failures: SignInFailuresRepo;
  announceRevoked: (keyId: string, companyId: string) => Promise<void>;
  now: () => Date;
}

const notFound = () => new AppError('not_found', 'the reset link is unknown, used or expired; ask for a new one', { code: 'NOT_FOUND' });

/**
 * POST /auth/password-resets/confirm: the link's token (single use, one hour) and a new password (argon2id). The
 * member's other reset links stop working, every session of the member ends (and every gateway drops its access
 * tokens), and the address's failed sign-ins are forgotten.
 */
export async function confirmPasswordReset(deps: ConfirmPasswordResetDeps, body: unknown): Promise<void> {
  const input = parseInput(PasswordResetConfirm, body);
  const passwordHash = await hashPassword(input.password);
  const member = await deps.commit(async (session, emit) => {
    const reset = await deps.resets.takeAcrossCompanies(hashPasswordResetToken(input.token), deps.now(), session);
    if (!reset) return null;
    const found = await deps.members.byId(reset.companyId, reset.memberId, session);
    // removed meanwhile, or (never so far) an open invitation: the link sets nothing
    if (!found || found.status !== 'active') return null;
    await deps.members.setPasswordHash(found.companyId, found._id, passwordHash, deps.now(), session);
    await deps.resets.removeAllOfMember(found.companyId, found._id, session);
    emit(eventMessage('member.password-reset.v1', found.companyId, { memberId: String(found._id) }));
    return found;
  });
  if (!member) throw notFound();
  const ended = await deps.sessions.sessionIdsOfMember(member.companyId, member._id);
  await deps.sessions.removeAllOfMember(member.companyId, member._id);
  for (const id of ended) await deps.announceRevoked(sessionKeyId(String(id)), member.companyId);
  await deps.failures.clear(member.email);
}
