import { envVars } from './config';
import { redisOptionsFromUrl } from './redis';

describe('REDIS_URL', () => {
  it('passes plain redis:// URLs through', () => {
    expect(redisOptionsFromUrl('redis://:pw@redis:6379')).toEqual({ url: 'redis://:pw@redis:6379', options: {} });
  });
  it('reads a Sentinel URL: sentinels, master name and the password for both', () => {
    expect(redisOptionsFromUrl('redis+sentinel://:p%40ss@redis-0.redis:26379,redis-1.redis:26379,redis-2.redis/mymaster')).toEqual({
      options: {
        sentinels: [
          { host: 'redis-0.redis', port: 26379 },
          { host: 'redis-1.redis', port: 26379 },
          { host: 'redis-2.redis', port: 26379 },
        ],
        name: 'mymaster',
        username: undefined,
        password: 'p@ss',
        sentinelPassword: 'p@ss',
      },
    });
  });
});

describe('REDIS_URL validation', () => {
  it.each([
    'redis://127.0.0.1:6379',
    'rediss://:pw@cache.example:6380/2',
    'redis+sentinel://:pw@redis-0.redis:26379,redis-1.redis:26379/mymaster',
  ])('accepts %s', (url) => {
    expect(envVars.redisUrl.safeParse(url).success).toBe(true);
  });
  it.each(['http://redis:6379', 'redis+sentinel://a:1,b:2', 'redis://'])('refuses %s', (url) => {
    expect(envVars.redisUrl.safeParse(url).success).toBe(false);
  });
});
