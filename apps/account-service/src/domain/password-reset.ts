import { createHash, createHmac, randomBytes } from 'node:crypto';
import { stripUnsafeChars } from '@inv/contracts';

/** A password reset link is valid this long, and only once. */
export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;
/** At most this many reset requests per e-mail address within PASSWORD_RESET_WINDOW_MS (each sends its e-mails). */
export const PASSWORD_RESETS_MAX = 3;
export const PASSWORD_RESET_WINDOW_MS = 60 * 60 * 1000;

/**
 * A reset token is derived like an invitation's (domain/invitation.ts): HMAC-SHA256(key, label + nonce), with the
 * nonce and the token's SHA-256 stored and the key in configuration only. A copy of the database resets nothing.
 */
const LABEL = 'inv-password-reset-link:v1:';

export const passwordResetToken = (key: string, nonce: string) =>
  createHmac('sha256', key)
    .update(LABEL + nonce, 'utf8')
    .digest('base64url');

export const hashPasswordResetToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** A new reset: the nonce and the token's hash to store, and the token for the e-mail (never stored). */
export function newPasswordReset(key: string): { nonce: string; hash: string; token: string } {
  const nonce = randomBytes(16).toString('base64url');
  const token = passwordResetToken(key, nonce);
  return { nonce, hash: hashPasswordResetToken(token), token };
}

/**
 * The reset e-mail (German, then English, as the invitation's). The token travels in the link's fragment, which
 * browsers never send to a server; the page posts it with the new password.
 */
export function passwordResetMail(opts: { companyName: string; link: string }) {
  const company = stripUnsafeChars(opts.companyName).trim();
  return {
    subject: `Passwort zurücksetzen für ${company} / Reset your password for ${company}`,
    text: [
      `Jemand hat verlangt, Ihr Passwort für ${company} zurückzusetzen. Legen Sie hier ein neues fest (der Link gilt einmal, eine Stunde lang):`,
      opts.link,
      'Waren Sie das nicht, ignorieren Sie diese E-Mail; Ihr Passwort bleibt unverändert.',
      '',
      `Someone asked to reset your password for ${company}. Set a new one here (the link works once, for one hour):`,
      opts.link,
      'If this was not you, ignore this e-mail; your password stays as it is.',
    ].join('\n'),
  };
}
