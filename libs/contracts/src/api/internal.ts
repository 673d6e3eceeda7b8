import { z } from 'zod';

/**
 * Answers of account-service's /internal/* routes, which only the gateway calls (with its own signed identity): the
 * key check of every API request (an API key or a member's access token). Not in the public API document.
 */

/** POST /internal/auth/verify: whose key it is (401 for a key that is unknown, revoked or deactivated). */
export const ApiKeyVerified = z.object({
  companyId: z.string(),
  keyId: z.string(),
  role: z.string().optional(),
  plan: z.string().optional(),
  /** live or test (docs/test-mode.md); absent from an older account-service: live. */
  mode: z.enum(['live', 'test']).optional(),
  /** A member's access token (the dashboard): the member, and when the token ends (the gateway caches it no longer). */
  memberId: z.string().optional(),
  expiresAt: z.string().optional(),
});
