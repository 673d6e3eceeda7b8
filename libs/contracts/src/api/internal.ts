import { z } from 'zod';

/**
 * Answers of account-service's /internal/* routes, which only the gateway calls (with its own signed identity): the
 * key check of every API request and the web app's sign-in. Not in the public API document.
 */

/** POST /internal/auth/verify: whose key it is (401 for a key that is unknown, revoked or deactivated). */
export const ApiKeyVerified = z.object({
  companyId: z.string(),
  keyId: z.string(),
  role: z.string().optional(),
  plan: z.string().optional(),
});

/** One company a member belongs to, as the web app's session keeps it. */
export const Membership = z.object({
  companyId: z.string(),
  companyName: z.string(),
  memberId: z.string(),
  role: z.string(),
  plan: z.string(),
});

/** POST /internal/members/sign-in: every company whose member has this e-mail address and password. */
export const MemberSignedIn = z.object({ memberships: z.array(Membership) });

/** POST /internal/members/current: the member as it is now (a changed role or plan applies at once). */
export const CurrentMember = z.object({ role: z.string(), plan: z.string(), companyName: z.string() });

/** POST /internal/members/accept-invitation: the member the invitation made. */
export const InvitationAccepted = z.object({ companyId: z.string(), memberId: z.string(), role: z.string(), email: z.string() });

/** POST /internal/members/invitation: whom an invitation token invites. */
export const InvitationDetails = z.object({ companyName: z.string(), email: z.string(), role: z.string() });
