import type { InvoiceSnapshot } from '@inv/contracts';

/**
 * Rules of outgoing invoice e-mail that keep `send_email` from being a relay: free texts carry no control
 * characters, recipients are the customer's known addresses (or the seller's own), and each UTC day a company
 * reaches a bounded number of mailboxes and an invoice is sent a bounded number of times.
 */

type Party = InvoiceSnapshot['buyer'];

/**
 * C0 and C1 controls and DEL, the bidirectional embeddings/overrides U+202A-U+202E and isolates U+2066-U+2069,
 * the line and paragraph separators U+2028/U+2029 and the byte order mark; the message may keep tab and line feed.
 */
const FORBIDDEN_LINE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/;
const FORBIDDEN_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/;

/** CR LF and lone CRs become LF (what a Windows client sends is a newline, not a control character). */
export const normaliseNewlines = (text: string) => text.replace(/\r\n?/g, '\n');

/** Why `text` may not be sent as the subject (single line) or the message (tab and line feed allowed), or undefined. */
export function unsafeTextProblem(text: string, multiLine: boolean): string | undefined {
  const m = (multiLine ? FORBIDDEN_TEXT : FORBIDDEN_LINE).exec(text);
  if (!m) return undefined;
  const codePoint = `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return `must not contain control characters or bidirectional overrides (${codePoint} at position ${m.index + 1})${
    multiLine ? '; line feed and tab are allowed' : ''
  }`;
}

/** Addresses compared as mailboxes are in practice: trimmed, case-insensitive. */
export const mailboxKey = (address: string) => address.trim().toLowerCase();

/** The e-mail addresses a party carries: contact e-mail, an `EM` electronic address (EN 16931 BT-49), a PEC. */
export function addressesOf(party: Partial<Pick<Party, 'contact' | 'electronicAddress' | 'pec'>> | undefined): string[] {
  if (!party) return [];
  const out: string[] = [];
  if (party.contact?.email) out.push(party.contact.email);
  if (party.electronicAddress?.scheme === 'EM' && party.electronicAddress.value) out.push(party.electronicAddress.value);
  if (party.pec) out.push(party.pec);
  return out.map(mailboxKey);
}

/** Recipients (as given) that are not in `allowed` (mailbox keys). */
export const unknownRecipients = (recipients: readonly string[], allowed: ReadonlySet<string>) =>
  recipients.filter((r) => !allowed.has(mailboxKey(r)));

/** `EMAIL_FREE_RECIPIENTS`: `true` (every company), `false` (none) or a comma-separated list of company ids. */
export type FreeRecipients = boolean | readonly string[];
export const mayUseFreeRecipients = (setting: FreeRecipients, companyId: string) =>
  typeof setting === 'boolean' ? setting : setting.includes(companyId);

/** The UTC day a send counts on (`2026-11-27`) and the seconds until the next one begins (Retry-After). */
export function emailDay(now: Date): { day: string; secondsLeft: number; endsAt: Date } {
  const endsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  return { day: now.toISOString().slice(0, 10), secondsLeft: Math.max(1, Math.ceil((endsAt.getTime() - now.getTime()) / 1000)), endsAt };
}
