import { targetReport, type RoundResult } from './targets';

const round = (clients: number, invoicesPerSecond: number, jobP50: number, jobP99: number, cpuTotal: number): RoundResult => ({
  clients,
  invoicesPerSecond,
  jobP50,
  jobP99,
  cpuTotal,
  cpuWithoutStandIns: cpuTotal - 8,
});

describe('targetReport', () => {
  it('says for each target what one run measured and whether it met it, round by round', () => {
    const lines = targetReport({
      coldStart: 21.5,
      coldRestart: 24.1,
      rounds: [
        round(1, 19.6, 30, 52, 68.9),
        round(1, 23.3, 26, 46, 55.3),
        round(10, 40.7, 142, 202, 45.5),
        round(10, 28.9, 150, 410, 61.2),
      ],
      idleRss: { account: 123, document: 140, gateway: 113 },
      peakRss: { account: 149, document: 219, gateway: 160 },
    }).join('\n');
    expect(lines).toContain('10 clients ≥ 30 invoices/s: 28.9–40.7/s: met in 1 of 2');
    expect(lines).toContain('10 clients job p99 ≤ 400 ms: 202–410 ms: met in 1 of 2');
    expect(lines).toContain('≤ 60 CPU ms per invoice, 10 clients: 45.5–61.2 ms (without the stand-ins 37.5–53.2): met in 1 of 2');
    expect(lines).toContain('1 client job p50 ≤ 60 ms: 26–30 ms: met');
    expect(lines).toContain('first 100 after a cold start ≥ 20/s: 21.5/s (the services restarted: 24.1/s): met');
    expect(lines).toContain('idle RSS ≤ 150 MB per service: 113–140 MB (document the most): met');
    expect(lines).toContain('no service above 300 MB at peak: at most 219 MB (document): met');
    expect(lines).toContain('not judged here: the gateway');
  });

  it('leaves out what the run did not measure, and says "not met" when no round met a target', () => {
    const lines = targetReport({ rounds: [round(10, 17.4, 323, 466, 103.9)], idleRss: {}, peakRss: {} }).join('\n');
    expect(lines).toContain('10 clients ≥ 30 invoices/s: 17.4/s: not met');
    expect(lines).toContain('job p99 ≤ 400 ms: 466 ms: not met');
    expect(lines).not.toContain('1 client');
    expect(lines).not.toContain('cold start');
    expect(lines).not.toContain('RSS ≤');
  });

  it('judges RSS over 1,000 invoices when the 10-client rounds after the first span that many', () => {
    const long = (rss: Record<string, number>): RoundResult => ({ ...round(10, 35, 150, 300, 50), invoices: 400, rss });
    const lines = targetReport({
      rounds: [
        long({ account: 145, gateway: 140 }),
        long({ account: 150, gateway: 150 }),
        long({ account: 151, gateway: 152 }),
        long({ account: 149, gateway: 156 }),
      ],
      idleRss: {},
      peakRss: {},
    }).join('\n');
    expect(lines).toContain(
      'RSS within ±10 % over 1,000 invoices: +3 % to +11 % from the end of the first 10-client round to the end of the last, 1,200 invoices (gateway the most): met in 1 of 2',
    );
    expect(lines).not.toContain('and RSS flat');
  });

  it('leaves RSS over 1,000 invoices unjudged when the rounds span fewer', () => {
    const short = (rss: Record<string, number>): RoundResult => ({ ...round(10, 35, 150, 300, 50), invoices: 150, rss });
    const lines = targetReport({
      rounds: [short({ account: 145 }), short({ account: 150 }), short({ account: 170 })],
      idleRss: {},
      peakRss: {},
    }).join('\n');
    expect(lines).not.toContain('RSS within');
    expect(lines).toContain('and RSS flat');
  });

  it('says so when the run was profiled', () => {
    const lines = targetReport({ rounds: [], idleRss: {}, peakRss: {}, profiled: true });
    expect(lines[1]).toContain('a profiled run');
  });
});
