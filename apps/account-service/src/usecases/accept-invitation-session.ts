import { Types } from 'mongoose';
import { asCompanyId, InvitationAccept } from '@inv/contracts';
import { parseInput, unauthenticated } from '@inv/service-kit';
import { acceptInvitation } from './accept-invitation';
import { openMemberSession, type MemberAccessDeps } from './issue-member-access';
import type { SignInDeps } from './sign-in-member';

/** POST /auth/invitations/accept: the invited address sets its password and is signed in (a member session). */
export async function acceptInvitationWithSession(deps: SignInDeps & MemberAccessDeps, body: unknown) {
  const input = parseInput(InvitationAccept, body);
  const accepted = await acceptInvitation(deps, input);
  const member = await deps.members.byId(asCompanyId(accepted.companyId), new Types.ObjectId(accepted.memberId));
  if (!member) throw unauthenticated('the member no longer exists');
  return openMemberSession(deps, member, 'live');
}
