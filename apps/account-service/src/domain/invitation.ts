import { createHash, randomBytes } from 'node:crypto';

/** An invitation link is valid this long, and only once. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** A new invitation token (256 bits, URL-safe) and the SHA-256 that is stored instead of it. */
export function newInvitationToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashInvitationToken(token) };
}

export const hashInvitationToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * The invitation e-mail (German and English). The token travels in the link's fragment (`#token=`), which
 * browsers never send to a server, so it reaches no access log; the page posts it to accept.
 */
export function invitationMail(opts: { companyName: string; role: string; link: string; expiresAt: Date }) {
  const until = opts.expiresAt.toISOString().slice(0, 10);
  return {
    subject: `Einladung zu ${opts.companyName} / Invitation to ${opts.companyName}`,
    text: [
      `Sie wurden als ${opts.role} zu ${opts.companyName} eingeladen. Legen Sie Ihr Passwort fest (der Link gilt einmal, bis ${until}):`,
      opts.link,
      '',
      `You have been invited to ${opts.companyName} as ${opts.role}. Set your password (the link works once, until ${until}):`,
      opts.link,
    ].join('\n'),
  };
}
