import { z } from 'zod';

/** The mode of an API key (docs/test-mode.md): live keys work on the company's data, test keys on its test twin. */
export const ApiKeyModeSchema = z
  .enum(['live', 'test'])
  .meta({ id: 'ApiKeyMode', description: 'live: `ak_live_…`, real data. test: `ak_test_…`, isolated test data without side effects' });
