import type { Logger, Redis } from '@inv/service-kit';
import type { FailedAuthLimiter } from '@inv/service-kit';

/** What the dashboard's pages need (web-app.ts builds them). */
export interface WebDeps {
  /** The gateway's base URL: the pages call the public API below `${gatewayUrl}/api/v1`. */
  gatewayUrl: string;
  redis: Redis;
  /** Failed sign-ins per account and client address ... */
  limiter: FailedAuthLimiter;
  /** ... and per client address, with a larger budget. */
  addressLimiter: FailedAuthLimiter;
  logger: Logger;
  production: boolean;
}
