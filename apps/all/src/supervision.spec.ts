import { freshStart, restartBackoffMs, RESTART_LIMIT, supervision } from './supervision';

describe('supervision (what npm start does when a service exits)', () => {
  it('stops everything by default; KEEP_GOING=1 / --keep-going keeps the others; RESTART=1 / --restart restarts', () => {
    expect(supervision({}, [])).toBe('stop');
    expect(supervision({ KEEP_GOING: '0', RESTART: '' }, [])).toBe('stop');
    expect(supervision({ KEEP_GOING: '1' }, [])).toBe('keep-going');
    expect(supervision({ KEEP_GOING: 'true' }, [])).toBe('keep-going');
    expect(supervision({}, ['--keep-going'])).toBe('keep-going');
    expect(supervision({ RESTART: '1' }, [])).toBe('restart');
    expect(supervision({ KEEP_GOING: '1' }, ['--restart'])).toBe('restart');
  });

  it('refuses an unknown argument or a value it cannot read (a typo would otherwise mean the default)', () => {
    expect(() => supervision({}, ['--keepgoing'])).toThrow('unknown argument(s) --keepgoing; known: --keep-going, --restart, --fresh');
    expect(() => supervision({ KEEP_GOING: 'sure' }, [])).toThrow('KEEP_GOING must be 1 or 0');
    expect(() => supervision({ RESTART: '2' }, [])).toThrow('RESTART must be 1 or 0');
  });

  it('restarts after 1 s, 2 s, 4 s, 8 s, 16 s, at most 5 times in a row', () => {
    expect(Array.from({ length: RESTART_LIMIT }, (_, i) => restartBackoffMs(i + 1))).toEqual([1000, 2000, 4000, 8000, 16_000]);
  });

  it('--fresh or FRESH=1 asks for an empty data directory; nothing else does', () => {
    expect(freshStart({}, [])).toBe(false);
    expect(freshStart({ FRESH: '0' }, ['--restart'])).toBe(false);
    expect(freshStart({ FRESH: '1' }, [])).toBe(true);
    expect(freshStart({}, ['--fresh'])).toBe(true);
    expect(supervision({}, ['--fresh'])).toBe('stop');
    expect(() => freshStart({ FRESH: 'yes please' }, [])).toThrow('FRESH must be 1 or 0');
  });
});
