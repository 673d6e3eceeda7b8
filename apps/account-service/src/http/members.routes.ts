import { Router } from 'express';
import { MemberInvite, MemberUpdate, Role } from '@inv/contracts';
import { companyIdOf, identityOf, parseInput } from '@inv/service-kit';
import type { Request } from 'express';
import { changeMemberRole } from '../usecases/change-member-role';
import { inviteMember } from '../usecases/invite-member';
import { listMembers } from '../usecases/list-members';
import type { MemberDeps } from '../support/member-rules';
import { removeMember } from '../usecases/remove-member';

/** The caller's role from the signed identity (keys from before roles act as admin). */
export const callerRoleOf = (req: Request): Role => Role.catch('admin').parse(identityOf(req)?.role ?? 'admin');

/** Permissions are checked by the gateway (apps/gateway/src/auth/permissions.ts); owner-only rules here. */
export function memberRoutes(deps: MemberDeps): Router {
  const router = Router();
  router.get('/members/', async (req, res) => {
    res.json({ members: await listMembers(deps, companyIdOf(req)) });
  });
  router.post('/members/', async (req, res) => {
    const member = await inviteMember(deps, companyIdOf(req), parseInput(MemberInvite, req.body), callerRoleOf(req));
    res
      .status(201)
      .location(`${req.baseUrl}/members/${member.id}`)
      .json({ message: `invitation sent to ${member.email}`, ...member });
  });
  router.put('/members/:id', async (req, res) => {
    const { role } = parseInput(MemberUpdate, req.body);
    res.json({ message: 'role changed', ...(await changeMemberRole(deps, companyIdOf(req), req.params.id, role, callerRoleOf(req))) });
  });
  router.delete('/members/:id', async (req, res) => {
    await removeMember(deps, companyIdOf(req), req.params.id, callerRoleOf(req));
    res.json({ message: 'member removed' });
  });
  return router;
}
