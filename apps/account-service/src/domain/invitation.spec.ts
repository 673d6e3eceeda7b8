import { hashInvitationToken, invitationMail, invitationToken, newInvitation, tokenOfInvitation } from './invitation';

const oldKey = 'a'.repeat(64);
const newKey = 'b'.repeat(64);

describe('invitation tokens', () => {
  it('stores a nonce and a hash from which the token follows only with the key', () => {
    const { nonce, hash } = newInvitation(oldKey);
    expect(nonce).toMatch(/^[\w-]{22}$/);
    const token = tokenOfInvitation([oldKey], nonce, hash)!;
    expect(token).toMatch(/^[\w-]{43}$/); // what accept-invitation takes
    expect(hashInvitationToken(token)).toBe(hash);
    expect(token).toBe(invitationToken(oldKey, nonce)); // the same every time: a redelivery renders the same link
    expect(tokenOfInvitation([newKey], nonce, hash)).toBeUndefined(); // the database alone gives nothing
    expect(tokenOfInvitation([newKey, oldKey], nonce, hash)).toBe(token); // a rotated-out key still listed renders it
    expect(newInvitation(oldKey).nonce).not.toBe(nonce);
  });

  it('keeps a company name with line breaks stored before the check out of the e-mail lines', () => {
    const mail = invitationMail({
      companyName: 'Evil\r\nBcc: x@evil.example\u202E',
      role: 'admin',
      link: 'L',
      expiresAt: new Date('2026-12-01'),
    });
    expect(mail.subject).toBe('Einladung zu EvilBcc: x@evil.example / Invitation to EvilBcc: x@evil.example');
    expect(mail.text.split('\n')).toHaveLength(5);
    expect(mail.text).toContain('Sie wurden als Administrator zu EvilBcc: x@evil.example eingeladen.');
    expect(mail.text).toContain('as admin.');
  });
});
