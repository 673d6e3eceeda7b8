import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { CompanyId } from '@inv/contracts';
import { connectObjectStore } from '@inv/objects';
import { createServiceRuntime, typesOf } from '@inv/runtime';
import { apiKeyRevokedChannel, invalidatePeerData } from '@inv/service-kit';
import type { AccountConfig } from './config';
import { MAX_ACTIVE_KEYS } from './domain/api-key';
import { sellerProfileTokens, testTwinSellerProfileTokens } from './domain/peer-data-changes';
import { apiKeysRepo } from './db/api-keys';
import { companiesRepo } from './db/companies';
import { membersRepo } from './db/members';
import { memberSessionsRepo } from './db/member-sessions';
import { passwordResetsRepo } from './db/password-resets';
import { signInFailuresRepo } from './db/sign-in-failures';
import { authRoutes } from './http/auth.routes';
import { auditLogRepo } from './db/audit-log';
import { AUDITED } from './domain/audit-events';
import { onAuditedEvent } from './consumers/audited-events';
import { auditRecorder } from './usecases/record-audit-event';
import { auditLogRoutes } from './http/audit-log.routes';
import { onCreateCompany } from './rpc/account.create-company';
import { onListCompanies } from './rpc/account.list-companies';
import { companyRoutes } from './http/company.routes';
import { internalRoutes } from './http/internal.routes';
import { bootstrapDemoCompany } from './usecases/bootstrap-demo-company';
import { onCompanyPlan } from './rpc/account.company-plan';
import { onCompanyOwners } from './rpc/account.company-owners';
import { onPaymentTerms } from './rpc/account.payment-terms';
import { onSellerProfile } from './rpc/account.seller-profile';
import { onVatChecked } from './consumers/vat.checked';
import { onInvitationEvent } from './consumers/invitation-mail';
import { scrubPublishedInvitationMailsAcrossCompanies } from './db/legacy-invitation-mails';
import { onPlanChanged } from './consumers/company.plan-changed';
import { LOGO_PATHS, logoRoutes } from './http/logo.routes';
import { paymentTermRoutes } from './http/payment-terms.routes';
import { memberRoutes } from './http/members.routes';
import { boundedQueue } from './support/bounded-queue';
import { LIVE_ONLY_PATHS, refuseTestModeWrites } from './http/test-mode-guard';
import { testDataRoutes } from './http/test-data.routes';

/** Company profile, API keys (stored as SHA-256 hashes) and the seller data frozen onto invoices. */
export async function createAccountService(config: AccountConfig) {
  const objects = await connectObjectStore(config);
  const rt = await createServiceRuntime({
    service: 'account-service',
    database: 'invoicing_account',
    port: config.PORT,
    env: config,
    useRedis: true,
    nonJsonBodyPaths: LOGO_PATHS,
    // DELETE /test-data deletes account-service's part itself, with the announcement (usecases/reset-test-data.ts)
    resetsTestData: false,
  });
  // invoice-service keeps copies of seller profiles: a change makes them stale before its request is answered
  rt.afterCommit((committed) =>
    invalidatePeerData(rt.redis!, [...sellerProfileTokens(committed), ...testTwinSellerProfileTokens(committed)], rt.logger),
  );
  const companies = companiesRepo(rt.conn);
  const apiKeys = apiKeysRepo(rt.conn);
  const members = membersRepo(rt.conn);
  const audit = auditLogRepo(rt.conn);
  const memberSessions = memberSessionsRepo(rt.conn);
  const signInFailures = signInFailuresRepo(rt.conn);
  const passwordResets = passwordResetsRepo(rt.conn);
  await Promise.all([
    companies.init(),
    apiKeys.init(),
    members.init(),
    audit.init(),
    memberSessions.init(),
    signInFailures.init(),
    passwordResets.init(),
  ]);
  const appUrl = config.APP_URL.replace(/\/$/, '');
  // invitation tokens are derived from a nonce with these keys when the e-mail is sent, never stored (domain/invitation.ts);
  // without IDENTITY_SIGNING_KEYS (development only) a key of this process, as the identity check does
  const linkKeys = config.IDENTITY_SIGNING_KEYS?.length ? config.IDENTITY_SIGNING_KEYS : [randomBytes(32).toString('hex')];
  const createDeps = { commit: rt.commit, companies, apiKeys, members, invite: { linkKeys } };
  await apiKeys.assignMissingSlotsAcrossCompanies(MAX_ACTIVE_KEYS);

  /** Every gateway replica drops a revoked key from its cache (Redis pub/sub; see apps/gateway/src/auth). */
  const announceRevoked = async (keyId: string, companyId: string) => {
    try {
      await rt.redis!.publish(apiKeyRevokedChannel(config.REDIS_PREFIX), JSON.stringify({ keyId, companyId }));
    } catch (err) {
      // the key is revoked in the database; gateways stop accepting it when their cache entry expires
      rt.logger.warn({ err, keyId }, 'could not announce an API key revocation; gateways drop it within AUTH_CACHE_TTL_MS');
    }
  };

  rt.app.use(LIVE_ONLY_PATHS, refuseTestModeWrites);
  const signIn = { commit: rt.commit, members, companies, now: () => new Date() };
  rt.app.use(internalRoutes({ apiKeys, companies, sessions: memberSessions, members }));
  rt.app.use(
    authRoutes({
      ...signIn,
      sessions: memberSessions,
      failures: signInFailures,
      announceRevoked,
      // password reset e-mails, like invitation e-mails, go to the mail module straight over the bus (their link is a secret)
      resets: passwordResets,
      bus: rt.bus,
      logger: rt.logger,
      linkKeys,
      mailFrom: config.MAIL_FROM,
      appUrl,
    }),
  );
  const templateExists = async (companyId: CompanyId, templateId: number) =>
    (await rt.bus.callRpc('document.template-exists.v1', companyId, { templateId })).exists;
  const companyDeps = { companies, commit: rt.commit, now: () => new Date(), templateExists, bus: rt.bus };
  rt.app.use(paymentTermRoutes(companyDeps));
  // logos cost a core while they are scaled: one libvips thread each, LOGO_CONCURRENCY at once, a bounded queue, then 503
  sharp.concurrency(1);
  const logoQueue = boundedQueue({
    concurrency: config.LOGO_CONCURRENCY,
    maxQueued: config.LOGO_QUEUE_MAX,
    busyCode: 'LOGO_BUSY',
    what: 'logos',
    retryAfterSeconds: 2,
  });
  rt.app.use(logoRoutes({ ...companyDeps, objects, presignTtlSeconds: config.PRESIGNED_URL_TTL_SECONDS, logoQueue }));
  rt.app.use(memberRoutes({ commit: rt.commit, members, companies, linkKeys, now: () => new Date() }));
  rt.app.use(companyRoutes({ ...companyDeps, apiKeys, announceRevoked }));
  rt.bus.onEvent('company-vat', ['vat.checked.v1'], (msg) => onVatChecked({ companies }, msg));
  // invitation e-mails are rendered here, when sent: the link's token is in no document (consumers/invitation-mail.ts)
  const invitationDeps = {
    members,
    companies,
    bus: rt.bus,
    logger: rt.logger,
    linkKeys,
    mailFrom: config.MAIL_FROM,
    appUrl,
    now: () => new Date(),
  };
  rt.bus.onEvent('invitation-mails', ['member.invited.v1', 'company.created.v1'], (msg) => onInvitationEvent(invitationDeps, msg));
  rt.bus.onEvent('account-plans', ['company.plan-changed.v1'], (msg) =>
    onPlanChanged({ commitOnce: rt.commitOnce, companies, apiKeys, announceRevoked }, msg),
  );
  // the audit log: one entry per audited event of any service, appended to the company's hash chain
  const recordAudit = auditRecorder({ commitOnce: rt.commitOnce, commitAllOnce: rt.commitAllOnce, audit, apiKeys });
  rt.bus.onEvent('audit-log', typesOf(AUDITED), (msg) => onAuditedEvent(recordAudit, msg));
  rt.app.use(auditLogRoutes({ audit }));
  rt.app.use(testDataRoutes({ conn: rt.conn, commit: rt.commit, now: () => new Date() }));
  rt.bus.serveRpc('account.create-company.v1', (msg) => onCreateCompany(createDeps, msg));
  rt.bus.serveRpc('account.list-companies.v1', (msg) => onListCompanies({ companies, members, apiKeys }, msg));
  rt.bus.serveRpc('account.company-plan.v1', (msg) => onCompanyPlan({ companies }, msg));
  rt.bus.serveRpc('account.company-owners.v1', (msg) => onCompanyOwners({ members }, msg));
  rt.bus.serveRpc('account.seller-profile.v1', (msg) => onSellerProfile({ companies }, msg));
  rt.bus.serveRpc('account.payment-terms.v1', (msg) => onPaymentTerms({ companies }, msg));

  return {
    runtime: rt,
    objects,
    async start() {
      const scrubbed = await scrubPublishedInvitationMailsAcrossCompanies(rt.conn);
      if (scrubbed) rt.logger.info({ scrubbed }, 'removed invitation links from published outbox entries');
      // not ready until the bootstrap key works: a request with it before would be refused, and the gateway would
      // remember the key as unknown (AUTH_NEGATIVE_CACHE_TTL_MS) after the company exists
      let bootstrapped = !config.BOOTSTRAP_API_KEY;
      rt.addReadinessCheck({ name: 'bootstrap', check: async () => bootstrapped });
      const http = await rt.start();
      if (config.BOOTSTRAP_API_KEY) {
        const result = await bootstrapDemoCompany(createDeps, config.BOOTSTRAP_API_KEY, config.BOOTSTRAP_COMPANY_NAME);
        rt.logger.info(result, 'demo company ready');
        bootstrapped = true;
      }
      return http;
    },
    async stop() {
      await rt.stop();
    },
  };
}
