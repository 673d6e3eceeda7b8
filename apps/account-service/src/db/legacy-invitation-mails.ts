import type { Connection } from 'mongoose';

export const SCRUBBED_TEXT = '(removed: the text held an invitation link)';

/**
 * Invitation e-mails used to be written to the outbox with their link (the token in clear), and published entries
 * stay there a week (libs/outbox). On start, removes the text of published `mail.send.v1` entries that carry such
 * a link: those e-mails went out already. An entry not yet published is left to the relay (the next start cleans it).
 * Answers how many were cleaned.
 */
export async function scrubPublishedInvitationMailsAcrossCompanies(conn: Connection): Promise<number> {
  const res = await conn
    .collection('outbox')
    .updateMany(
      { type: 'mail.send.v1', publishedAt: { $exists: true }, 'data.text': { $regex: 'accept-invitation#token=' } },
      { $set: { 'data.text': SCRUBBED_TEXT } },
    );
  return res.modifiedCount;
}
