import { randomBytes } from 'node:crypto';
import type { Changes } from '@inv/outbox';
import { eventMessage } from '@inv/runtime';
import { INVITATION_TTL_MS, newInvitation } from '../domain/invitation';
import { type CompanyId, unsafeCharIn } from '@inv/contracts';
import { AppError, invalidData } from '@inv/service-kit';
import type { ApiKeysRepo } from '../db/api-keys';
import type { CompaniesRepo } from '../db/companies';
import type { CompanyDoc } from '../domain/company-doc';
import type { MembersRepo } from '../db/members';
import { displayPrefix, generateApiKey, hashApiKey, MAX_ACTIVE_KEYS } from '../domain/api-key';

export interface CreateCompanyDeps {
  commit: Changes['commit'];
  companies: CompaniesRepo;
  apiKeys: ApiKeysRepo;
  members: MembersRepo;
  /**
   * When set, the owner gets an invitation (a single-use link to set the password, valid 7 days), derived with the
   * first key; the e-mail is rendered and sent when company.created.v1 arrives (consumers/invitation-mail.ts).
   */
  invite?: { linkKeys: readonly string[] };
}

export interface CreateCompanyInput {
  companyId: CompanyId;
  name: string;
  ownerEmail: string;
  plan: 'free' | 'pro';
  /** Register this key (BOOTSTRAP_API_KEY) instead of generating one. */
  apiKey?: string;
  /** Seller profile to start with (the demo company's); otherwise only the name, the rest entered through PUT /company/. */
  profile?: Partial<Omit<CompanyDoc, '_id' | 'createdAt' | 'plan'>>;
}

/** Company ids the operator command generates: `cmp_` and 24 hexadecimal characters. */
export const newCompanyId = () => `cmp_${randomBytes(12).toString('hex')}`;
export const COMPANY_ID_PATTERN = /^cmp_[a-z0-9_]{3,60}$/;

/**
 * Creates a company with its owner (a member who signs in to the web app after accepting by e-mail or
 * setting a password) and, on Pro, an owner API key: the operator command's and the demo bootstrap's one
 * path. The company-created event goes through the outbox in the same transaction, so quota-service learns
 * the plan even if this process dies right after. Idempotent per company id: creating it again creates
 * nothing and answers no new key (a given `apiKey` is checked to belong to the company).
 */
export async function createCompany(deps: CreateCompanyDeps, input: CreateCompanyInput) {
  if (!COMPANY_ID_PATTERN.test(input.companyId))
    throw new AppError('invalid_data', 'company id: cmp_ followed by 3 to 60 lowercase letters, digits or _');
  // the name reaches the owner's invitation e-mail and every invoice: no line breaks, controls or bidi overrides
  const unsafe = unsafeCharIn(input.name);
  if (unsafe) {
    const message = `must not contain control characters or bidirectional overrides (${unsafe.codePoint} at position ${unsafe.index + 1})`;
    throw invalidData(`name ${message}`, [{ path: 'name', message }]);
  }
  if (input.apiKey && input.plan !== 'pro') throw new AppError('invalid_data', 'API keys need the Pro plan', { code: 'PLAN_REQUIRED' });
  const key = input.plan === 'pro' ? (input.apiKey ?? generateApiKey()) : undefined;
  return deps.commit(async (session, emit) => {
    const existing = await deps.companies.byId(input.companyId, session);
    let keyId: string | undefined;
    if (!existing) {
      const now = new Date();
      await deps.companies.insert(
        {
          legalName: '',
          address: { line1: '', postalCode: '', city: '', countryCode: 'DE' },
          paymentTermDays: 14,
          // a company without a profile keeps its bank accounts in the list (the demo profile brings its own list)
          ...(input.profile ?? { bankAccounts: [], bankAccountsRev: 0 }),
          _id: input.companyId,
          name: input.name,
          plan: input.plan,
          ownerEmail: input.ownerEmail,
          createdAt: now,
        },
        session,
      );
      const invitation = deps.invite ? newInvitation(deps.invite.linkKeys[0]!) : undefined;
      const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
      await deps.members.insert(
        {
          companyId: input.companyId,
          email: input.ownerEmail,
          role: 'owner',
          status: 'invited',
          createdAt: now,
          ...(invitation ? { invitationHash: invitation.hash, invitationNonce: invitation.nonce, invitationExpiresAt: expiresAt } : {}),
        },
        session,
      );
      // the owner's invitation e-mail follows company.created.v1 (rendered then: the token is in no document)
      emit(
        eventMessage('company.created.v1', input.companyId, { name: input.name, plan: input.plan }, `company-created-${input.companyId}`),
      );
    } else if (await deps.members.byEmail(input.companyId, input.ownerEmail, session).then((m) => !m)) {
      // a company created before members existed (the demo company of earlier versions) gets its owner
      await deps.members.insert(
        { companyId: input.companyId, email: input.ownerEmail, role: 'owner', status: 'invited', createdAt: new Date() },
        session,
      );
    }
    if (key && (!existing || input.apiKey)) {
      const hash = hashApiKey(key);
      const found = await deps.apiKeys.byHashAcrossCompanies(hash, session);
      if (found && (found.revokedAt || found.companyId !== input.companyId))
        throw new AppError('conflict', 'the API key belongs to a revoked key or another company; choose a new key');
      if (!found) {
        const used = new Set(await deps.apiKeys.usedSlots(input.companyId, session));
        const slot = Array.from({ length: MAX_ACTIVE_KEYS }, (_, i) => i).find((i) => !used.has(i));
        if (slot === undefined)
          throw new AppError('conflict', `the company already has ${MAX_ACTIVE_KEYS} active API keys; revoke one first`, {
            code: 'API_KEY_LIMIT_REACHED',
          });
        const doc = await deps.apiKeys.insert(
          {
            companyId: input.companyId,
            name: input.apiKey ? 'bootstrap' : 'created by the operator',
            role: 'owner',
            prefix: displayPrefix(key),
            hash,
            createdAt: new Date(),
            slot,
          },
          session,
        );
        keyId = String(doc._id);
        emit(eventMessage('api-key.created.v1', input.companyId, { keyId, name: doc.name, prefix: doc.prefix, role: 'owner' }));
      } else keyId = String(found._id);
    }
    const returnsKey = !existing && key !== undefined && !input.apiKey;
    return {
      companyId: input.companyId,
      created: !existing,
      plan: existing?.plan ?? input.plan,
      ...(returnsKey ? { apiKey: key } : {}),
      ...(keyId ? { keyId } : {}),
    };
  });
}
