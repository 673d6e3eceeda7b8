import { Router } from 'express';
import { InvitationLookup } from '@inv/contracts';
import { parseInput } from '@inv/service-kit';
import { invitationDetails } from '../usecases/accept-invitation';
import { acceptInvitationWithSession } from '../usecases/accept-invitation-session';
import { confirmPasswordReset, type ConfirmPasswordResetDeps } from '../usecases/confirm-password-reset';
import { endMemberSession } from '../usecases/end-member-session';
import type { MemberAccessDeps } from '../usecases/issue-member-access';
import { refreshMemberSession } from '../usecases/refresh-member-session';
import { requestPasswordReset, type PasswordResetDeps } from '../usecases/request-password-reset';
import { startMemberSession, type StartSessionDeps } from '../usecases/start-member-session';

/**
 * Members' sign-in through the public API (/auth/*, which the gateway passes on without an API key): a session and
 * short-lived access tokens that the gateway checks like API keys. The dashboard (apps/web) signs in this way.
 */
export function authRoutes(deps: StartSessionDeps & MemberAccessDeps & ConfirmPasswordResetDeps & PasswordResetDeps): Router {
  const router = Router();
  router.post('/auth/sessions', async (req, res) => {
    res.status(201).json(await startMemberSession(deps, req.body));
  });
  router.post('/auth/sessions/refresh', async (req, res) => {
    res.json(await refreshMemberSession(deps, req.body));
  });
  router.post('/auth/sessions/revoke', async (req, res) => {
    await endMemberSession(deps, req.body);
    res.json({ message: 'signed out' });
  });
  router.post('/auth/invitations/lookup', async (req, res) => {
    const found = await invitationDetails(deps, parseInput(InvitationLookup, req.body));
    res.json({ company_name: found.companyName, email: found.email, role: found.role });
  });
  router.post('/auth/invitations/accept', async (req, res) => {
    res.status(201).json(await acceptInvitationWithSession(deps, req.body));
  });
  router.post('/auth/password-resets', (req, res) => {
    const send = requestPasswordReset(deps, req.body);
    // the same answer at once for every address; whether e-mails go out is decided afterwards
    res.status(202).json({ message: 'if the address belongs to a member, an e-mail with a reset link is on its way' });
    send().catch((err: unknown) => deps.logger.error({ err }, 'password reset e-mails not sent'));
  });
  router.post('/auth/password-resets/confirm', async (req, res) => {
    await confirmPasswordReset(deps, req.body);
    res.json({ message: 'the new password is set; sign in with it' });
  });
  return router;
}
