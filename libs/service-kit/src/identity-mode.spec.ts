import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
import { createIdentitySigner, createIdentityVerifier } from './identity';

const key = 'c'.repeat(64);
const kid = createHash('sha256').update(key).digest('hex').slice(0, 16);

describe('identity tokens in test mode (docs/test-mode.md)', () => {
  it("carry mode test for a test twin's company, and no mode for a live one", async () => {
    const signer = createIdentitySigner([key]);
    const verifier = createIdentityVerifier([key]);
    const twin = await verifier.verify(await signer.sign({ scope: 'company', companyId: 'test~cmp_1', role: 'admin' }));
    expect(twin).toMatchObject({ companyId: 'test~cmp_1', mode: 'test' });
    const live = await verifier.verify(await signer.sign({ scope: 'company', companyId: 'cmp_1', role: 'admin' }));
    expect(live.mode).toBeUndefined();
  });

  it('refuses a token whose mode claim disagrees with its company', async () => {
    const forged = await new SignJWT({ scope: 'company', mode: 'live' })
      .setProtectedHeader({ alg: 'HS256', kid })
      .setSubject('test~cmp_1')
      .setIssuer('inv-gateway')
      .setAudience('inv-services')
      .setIssuedAt()
      .setExpirationTime('60s')
      .sign(Buffer.from(key));
    await expect(createIdentityVerifier([key]).verify(forged)).rejects.toThrow('identity token mode and company disagree');
  });
});
