import { AppError, IDENTITY_HEADER, type IdentitySigner, type Logger } from '@inv/service-kit';

/** What account-service answers (loosely: fields the pages show). */
export interface Json {
  [k: string]: unknown;
  code?: string;
  message?: string;
  key?: string;
  email?: string;
  companyId?: string;
  memberships?: Membership[];
  api_keys?: KeyView[];
  members?: MemberView[];
}
export interface Membership {
  companyId: string;
  companyName: string;
  memberId: string;
  role: string;
  plan: string;
}
export interface KeyView {
  id: string;
  name: string;
  prefix: string;
  role: string;
  /** live or test (docs/test-mode.md); absent from an older account-service: live. */
  mode?: string;
  created_at: string;
  last_used_at: string | null;
  active: boolean;
  revoked_reason: string | null;
}
export interface MemberView {
  email: string;
  role: string;
  status: string;
}

/** Calls account-service as the API does: with a signed identity (the web app's member, or internal). */
export function accountCaller(deps: { accountUrl: string; signer: IdentitySigner; logger: Logger }) {
  return serviceCaller({
    ...deps,
    url: deps.accountUrl,
    what: 'account-service',
    unavailable: 'the account settings are temporarily unavailable; retry shortly',
  });
}

/** Calls a service's HTTP API with a signed identity, as the gateway's proxy does. */
export function serviceCaller(deps: { url: string; what: string; unavailable: string; signer: IdentitySigner; logger: Logger }) {
  return async function call(method: string, path: string, body: unknown, identity: Parameters<IdentitySigner['sign']>[0]) {
    let res: globalThis.Response;
    try {
      res = await fetch(`${deps.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', [IDENTITY_HEADER]: await deps.signer.sign(identity) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      deps.logger.warn({ err, path }, `web app: ${deps.what} unreachable`);
      throw new AppError('unavailable', deps.unavailable, { code: 'SERVICE_UNAVAILABLE' });
    }
    return { status: res.status, body: ((await res.json().catch(() => ({}))) ?? {}) as Json };
  };
}
