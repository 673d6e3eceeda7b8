import { z } from 'zod';

/** DELETE /test-data: what a reset removed (docs/test-mode.md). */
export const TestDataReset = z
  .object({
    message: z.string(),
    deleted: z
      .record(z.string(), z.number().int())
      .meta({ description: "documents removed per collection of the company's test data (empty for a repeat: a reset is idempotent)" }),
  })
  .meta({ id: 'TestDataReset' });
export type TestDataReset = z.output<typeof TestDataReset>;
