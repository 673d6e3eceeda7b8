import { Router } from 'express';
import type { ApiKeysRepo } from '../db/api-keys';
import type { CompaniesRepo } from '../db/companies';
import { verifyApiKey } from '../usecases/verify-api-key';
import { acceptInvitation, invitationDetails } from '../usecases/accept-invitation';
import { currentMember } from '../usecases/current-member';
import { signIn, type SignInDeps } from '../usecases/sign-in-member';

/**
 * Called by the gateway only: never routed publicly, and like every /internal/* path it needs the
 * gateway's own signed identity (service-kit requireIdentity), so it is no key oracle for anyone else.
 */
export function internalRoutes(deps: { apiKeys: ApiKeysRepo; companies: CompaniesRepo; signIn: SignInDeps }): Router {
  const router = Router();
  // the web app's sign-in (through the gateway, which keeps the session): password, and invitation acceptance
  router.post('/internal/members/sign-in', async (req, res) => {
    res.json(await signIn(deps.signIn, req.body));
  });
  router.post('/internal/members/current', async (req, res) => {
    res.json(await currentMember(deps.signIn, req.body));
  });
  router.post('/internal/members/accept-invitation', async (req, res) => {
    res.json(await acceptInvitation(deps.signIn, req.body));
  });
  // the invitation page: which company and address a token invites (nothing for a token that accepts nothing)
  router.post('/internal/members/invitation', async (req, res) => {
    res.json(await invitationDetails(deps.signIn, req.body));
  });
  router.post('/internal/auth/verify', async (req, res) => {
    const key = typeof req.body?.key === 'string' ? req.body.key : undefined;
    res.json(await verifyApiKey(deps, key));
  });
  return router;
}
