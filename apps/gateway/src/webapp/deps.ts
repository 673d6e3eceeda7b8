import type { IdentitySigner, Logger, Redis } from '@inv/service-kit';
import type { FailedAuthLimiter } from '../auth/failed-auth-limiter';

/** What the web app's pages need from the gateway (webapp.routes.ts builds them). */
export interface WebAppDeps {
  accountUrl: string;
  webhookUrl: string;
  signer: IdentitySigner;
  redis: Redis;
  /** Failed sign-ins per account and client address (the failed-authentication limiter, its own keys) ... */
  limiter: FailedAuthLimiter;
  /** ... and per client address, with a larger budget. */
  addressLimiter: FailedAuthLimiter;
  logger: Logger;
  production: boolean;
}
