import { ConfigError, parseConfig } from '@inv/service-kit';
import { vatConfig } from './config';

describe('vat-service config', () => {
  it('defaults: port 3005, no VIES_URL (simulator), 10 s timeout, 4 attempts', () => {
    const c = parseConfig(vatConfig, {});
    expect(c).toMatchObject({ PORT: 3005, VIES_TIMEOUT_MS: 10_000, VIES_MAX_ATTEMPTS: 4, VIES_BACKOFF_MS: [200, 1000, 3000] });
    expect(c.VIES_URL).toBeUndefined();
    expect(c.REQUESTER_VAT_ID).toBeUndefined();
  });
  it('turns REQUESTER_VAT_ID into the requester VIES expects', () => {
    expect(parseConfig(vatConfig, { REQUESTER_VAT_ID: 'DE 143 454 214' }).REQUESTER_VAT_ID).toEqual({
      countryCode: 'DE',
      vatNumber: '143454214',
    });
  });
  it('names every bad variable', () => {
    let problems: string[] = [];
    try {
      parseConfig(vatConfig, { REQUESTER_VAT_ID: 'DE143454215', VIES_URL: 'not a url', VIES_BACKOFF_MS: '1,x', VIES_TIMEOUT_MS: '0' });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      problems = (err as ConfigError).problems;
    }
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['REQUESTER_VAT_ID', 'VIES_BACKOFF_MS', 'VIES_TIMEOUT_MS', 'VIES_URL']);
    expect(problems.find((p) => p.startsWith('REQUESTER_VAT_ID'))).toMatch(/check digit/);
  });
});
