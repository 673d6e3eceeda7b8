import { z } from 'zod';
import { envVars } from '@inv/service-kit';

const setFlagsFromString = jest.fn();
jest.mock('node:v8', () => ({ ...jest.requireActual('node:v8'), setFlagsFromString: (flags: string) => setFlagsFromString(flags) }));

// imported after the mock, so that run-main takes the mocked function
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { applyHeapGrowing } = require('./run-main') as typeof import('./run-main');

describe('HEAP_GROWING_PERCENT', () => {
  const schema = z.object({ HEAP_GROWING_PERCENT: envVars.heapGrowingPercent });

  it('defaults to 50, takes 0 (V8 decides) and refuses what is not a percentage', () => {
    expect(schema.parse({}).HEAP_GROWING_PERCENT).toBe(50);
    expect(schema.parse({ HEAP_GROWING_PERCENT: '0' }).HEAP_GROWING_PERCENT).toBe(0);
    expect(schema.parse({ HEAP_GROWING_PERCENT: '100' }).HEAP_GROWING_PERCENT).toBe(100);
    for (const bad of ['-1', '1001', '1.5', 'fast']) expect(schema.safeParse({ HEAP_GROWING_PERCENT: bad }).success).toBe(false);
  });

  it('sets the V8 flag, and leaves V8 alone with 0', () => {
    setFlagsFromString.mockClear();
    applyHeapGrowing(50);
    expect(setFlagsFromString).toHaveBeenCalledWith('--heap-growing-percent=50');
    setFlagsFromString.mockClear();
    applyHeapGrowing(0);
    expect(setFlagsFromString).not.toHaveBeenCalled();
  });
});
