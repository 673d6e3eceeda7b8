import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { stripUnsafeChars } from '@inv/contracts';

/** An invitation link is valid this long, and only once. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * An invitation's token is never stored, neither in a document nor in the outbox: it is derived when the e-mail is
 * sent as HMAC-SHA256(key, label + nonce), where the nonce (128 random bits) and the token's SHA-256 are kept with
 * the member and the key is configuration (one of IDENTITY_SIGNING_KEYS), never in the database. A copy of the
 * database (a backup, the oplog, the outbox's week of published messages) therefore holds nothing that accepts an
 * invitation. Deriving instead of drawing a fresh token at send time makes sending idempotent: a redelivered
 * message renders the same link, so the mail module's deduplication by e-mail id can never leave the member with
 * a link whose hash was replaced.
 */
const LABEL = 'inv-invitation-link:v1:';

/** The token of an invitation (43 URL-safe characters, 256 bits). */
export const invitationToken = (key: string, nonce: string) =>
  createHmac('sha256', key)
    .update(LABEL + nonce, 'utf8')
    .digest('base64url');

export const hashInvitationToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** A new invitation: the nonce and the token's hash to store (the token itself is derived again when sending). */
export function newInvitation(key: string): { nonce: string; hash: string } {
  const nonce = randomBytes(16).toString('base64url');
  return { nonce, hash: hashInvitationToken(invitationToken(key, nonce)) };
}

/**
 * The token of a stored invitation: the one whose hash was stored, derived with whichever of the keys made it
 * (a key rotated in meanwhile still renders invitations made before, while it is listed). Undefined when none did.
 */
export function tokenOfInvitation(keys: readonly string[], nonce: string, storedHash: string): string | undefined {
  const expected = Buffer.from(storedHash, 'hex');
  for (const key of keys) {
    const token = invitationToken(key, nonce);
    const got = Buffer.from(hashInvitationToken(token), 'hex');
    if (got.length === expected.length && timingSafeEqual(got, expected)) return token;
  }
  return undefined;
}

/** A role's name in the German text of the invitation e-mail (the English one says the role itself). */
const ROLE_DE: Record<string, string> = { owner: 'Inhaber', admin: 'Administrator', member: 'Mitglied', viewer: 'Betrachter' };

/**
 * The invitation e-mail (German and English). The token travels in the link's fragment (`#token=`), which
 * browsers never send to a server, so it reaches no access log; the page posts it to accept.
 */
export function invitationMail(opts: { companyName: string; role: string; link: string; expiresAt: Date }) {
  const until = opts.expiresAt.toISOString().slice(0, 10);
  // names are refused with control characters since safeText; one stored before cannot add lines to the message
  const company = stripUnsafeChars(opts.companyName).trim();
  return {
    subject: `Einladung zu ${company} / Invitation to ${company}`,
    text: [
      `Sie wurden als ${ROLE_DE[opts.role] ?? opts.role} zu ${company} eingeladen. Legen Sie Ihr Passwort fest (der Link gilt einmal, bis ${until}):`,
      opts.link,
      '',
      `You have been invited to ${company} as ${opts.role}. Set your password (the link works once, until ${until}):`,
      opts.link,
    ].join('\n'),
  };
}
