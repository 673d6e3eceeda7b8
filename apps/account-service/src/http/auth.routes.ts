import { Router } from 'express';
import { InvitationLookup } from '@inv/contracts';
import { parseInput } from '@inv/service-kit';
import { invitationDetails } from '../usecases/accept-invitation';
import { acceptInvitationWithSession } from '../usecases/accept-invitation-session';
import { endMemberSession } from '../usecases/end-member-session';
import type { MemberAccessDeps } from '../usecases/issue-member-access';
import { refreshMemberSession } from '../usecases/refresh-member-session';
import { startMemberSession, type StartSessionDeps } from '../usecases/start-member-session';

/**
 * Members' sign-in through the public API (/auth/*, which the gateway passes on without an API key): a session and
 * short-lived access tokens that the gateway checks like API keys. The dashboard (apps/web) signs in this way.
 */
export function authRoutes(
  deps: StartSessionDeps & MemberAccessDeps & { announceRevoked: (keyId: string, companyId: string) => Promise<void> },
): Router {
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
  return router;
}
