import { PasswordResetRequest } from '@inv/contracts';
import type { AppBus } from '@inv/runtime';
import { parseInput, type Logger } from '@inv/service-kit';
import type { CompaniesRepo } from '../db/companies';
import type { MembersRepo } from '../db/members';
import type { PasswordResetsRepo } from '../db/password-resets';
import {
  newPasswordReset,
  PASSWORD_RESET_TTL_MS,
  PASSWORD_RESET_WINDOW_MS,
  PASSWORD_RESETS_MAX,
  passwordResetMail,
} from '../domain/password-reset';

export interface PasswordResetDeps {
  members: MembersRepo;
  companies: CompaniesRepo;
  resets: PasswordResetsRepo;
  bus: AppBus;
  logger: Logger;
  /** Keys reset tokens are derived with (the first makes new ones). */
  linkKeys: readonly string[];
  mailFrom: string;
  /** Base URL of the web app (links point to `${appUrl}/reset-password`). */
  appUrl: string;
  now: () => Date;
}

/**
 * POST /auth/password-resets: checks the input, then answers 202 whatever the address; the e-mails are sent
 * afterwards (sendPasswordResetMails), so neither the answer nor its timing tells whether the address is known.
 */
export function requestPasswordReset(deps: PasswordResetDeps, body: unknown): () => Promise<void> {
  const input = parseInput(PasswordResetRequest, body);
  return () => sendPasswordResetMails(deps, input.email);
}

/**
 * One e-mail with a single-use link (one hour) per active member with the address, at most PASSWORD_RESETS_MAX
 * requests per address and hour. The link's token is derived from a fresh nonce and the configured key and goes
 * to the mail module (mail.send.v1) straight over the bus, never into a document (like the invitation e-mail,
 * consumers/invitation-mail.ts): the database keeps only its hash. A request lost in a crash is simply asked again.
 */
export async function sendPasswordResetMails(deps: PasswordResetDeps, email: string): Promise<void> {
  const members = await deps.members.allByEmailAcrossCompanies(email);
  if (!members.length) return;
  const now = deps.now();
  if ((await deps.resets.countRequest(email, now, PASSWORD_RESET_WINDOW_MS)) > PASSWORD_RESETS_MAX) {
    deps.logger.info({ members: members.length }, 'password reset not sent: too many requests for this address within the hour');
    return;
  }
  for (const member of members) {
    const company = await deps.companies.byId(member.companyId);
    if (!company) continue;
    const { nonce, hash, token } = newPasswordReset(deps.linkKeys[0]!);
    const reset = await deps.resets.insert({
      companyId: member.companyId,
      memberId: member._id,
      nonce,
      tokenHash: hash,
      createdAt: now,
      expiresAt: new Date(now.getTime() + PASSWORD_RESET_TTL_MS),
    });
    const mail = passwordResetMail({ companyName: company.name, link: `${deps.appUrl}/reset-password#token=${token}` });
    const id = String(reset._id);
    await deps.bus.sendCommand(
      'mail.send.v1',
      member.companyId,
      {
        emailId: `password-reset-${id}`,
        subjectRef: `member:${String(member._id)}`,
        from: deps.mailFrom,
        to: [member.email],
        subject: mail.subject,
        text: mail.text,
      },
      { id: `password-reset-mail-${id}` },
    );
  }
}
