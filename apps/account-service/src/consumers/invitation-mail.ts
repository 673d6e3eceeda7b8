import { Types } from 'mongoose';
import type { AppBus, EventOf } from '@inv/runtime';
import type { Logger } from '@inv/service-kit';
import type { CompaniesRepo } from '../db/companies';
import type { MemberDoc, MembersRepo } from '../db/members';
import { invitationMail, tokenOfInvitation } from '../domain/invitation';

export interface InvitationMailDeps {
  members: MembersRepo;
  companies: CompaniesRepo;
  bus: AppBus;
  logger: Logger;
  /** Keys invitation tokens are derived with (IDENTITY_SIGNING_KEYS: the first made new ones, all render). */
  linkKeys: readonly string[];
  /** Sender of the invitation e-mails. */
  mailFrom: string;
  /** Base URL of the web app (links point to `${appUrl}/accept-invitation`). */
  appUrl: string;
  now: () => Date;
}

/**
 * member.invited.v1 (an invitation) and company.created.v1 (the owner's invitation): renders the e-mail with the
 * single-use link now, deriving the token from the member's nonce and the configured key, and hands it to the mail
 * module (mail.send.v1) straight over the bus, never through a document. The same invitation always renders the
 * same link and has one e-mail id, so a redelivered event sends nothing twice (the mail module deduplicates).
 * An invitation accepted, removed or expired meanwhile sends nothing.
 * Exception to `commit`/`publish` (libs/outbox commit.ts): the e-mail holds the invitation's secret link, which must
 * never be written to a document (the outbox is one); it changes nothing here, and a crash before the command is
 * sent redelivers the event, which renders the same e-mail with the same id again.
 */
export async function onInvitationEvent(deps: InvitationMailDeps, msg: EventOf<'member.invited.v1' | 'company.created.v1'>) {
  const now = deps.now();
  let open: MemberDoc[];
  if (msg.type === 'member.invited.v1') {
    const id = msg.data.memberId;
    const member = id && Types.ObjectId.isValid(id) ? await deps.members.byId(msg.companyId, new Types.ObjectId(id)) : null;
    open = member && member.status === 'invited' && member.invitationNonce && member.invitationExpiresAt! > now ? [member] : [];
  } else {
    open = (await deps.members.openInvitations(msg.companyId, now)).filter((m) => m.role === 'owner');
  }
  if (!open.length) return;
  const company = await deps.companies.byId(msg.companyId);
  if (!company) return;
  for (const member of open) {
    const token = tokenOfInvitation(deps.linkKeys, member.invitationNonce!, member.invitationHash!);
    if (!token) {
      // made with a key no longer configured: the link cannot be rendered; a new invitation is needed
      deps.logger.warn(
        { companyId: msg.companyId, memberId: String(member._id) },
        'invitation e-mail not sent: its key is no longer configured',
      );
      continue;
    }
    const id = String(member._id);
    const mail = invitationMail({
      companyName: company.name,
      role: member.role,
      link: `${deps.appUrl}/accept-invitation#token=${token}`,
      expiresAt: member.invitationExpiresAt!,
    });
    await deps.bus.sendCommand(
      'mail.send.v1',
      msg.companyId,
      {
        emailId: `invitation-${id}`,
        subjectRef: `member:${id}`,
        from: deps.mailFrom,
        to: [member.email],
        subject: mail.subject,
        text: mail.text,
      },
      { id: `invitation-mail-${id}-${member.invitationNonce}` },
    );
  }
}
