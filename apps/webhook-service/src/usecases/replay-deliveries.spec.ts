import { replayAnswer } from './replay-deliveries';

describe('the answer of a replay', () => {
  it('says how many deliveries it queued', () => {
    expect(replayAnswer(2, 0, null)).toEqual({
      requeued: 2,
      waiting_for_retry: 0,
      next_retry_at: null,
      message: '2 failed deliveries queued again',
    });
    expect(replayAnswer(1, 0, null).message).toBe('1 failed delivery queued again');
  });

  it('says when failed deliveries still wait for their automatic retry (a 0 is not "nothing failed")', () => {
    const next = new Date('2026-11-21T10:20:00.000Z');
    expect(replayAnswer(0, 3, next)).toEqual({
      requeued: 0,
      waiting_for_retry: 3,
      next_retry_at: '2026-11-21T10:20:00.000Z',
      message:
        'no failed delivery to queue again; 3 deliveries failed an attempt and wait for their automatic retry (the next at 2026-11-21T10:20:00.000Z): retry one now with POST .../deliveries/{delivery_id}/retry',
    });
    expect(replayAnswer(1, 1, next).message).toMatch(
      /^1 failed delivery queued again; 1 delivery failed an attempt and waits for its automatic retry/,
    );
  });
});
