import { z } from 'zod';
import { AppError, invalidData, notFound } from './errors';
import { toProblem } from './problem';

describe('toProblem', () => {
  it('maps AppError to its status with message, error_code and code', () => {
    const { problem, unexpected } = toProblem(notFound('invoice 7'));
    expect(unexpected).toBe(false);
    expect(problem).toMatchObject({
      status: 404,
      title: 'Not Found',
      message: 'invoice 7 not found',
      detail: 'invoice 7 not found',
      error_code: 'NOT_FOUND',
      code: 'NOT_FOUND',
    });
    expect(problem.type).toMatch(/not-found$/);
  });

  it('carries field errors and extra members', () => {
    const err = new AppError('limit_reached', 'limit', { code: 'INVOICE_LIMIT_REACHED', extra: { used: 3, limit: 3 } });
    expect(toProblem(err).problem).toMatchObject({ status: 402, used: 3, limit: 3, error_code: 'INVOICE_LIMIT_REACHED' });
    expect(toProblem(invalidData('bad', [{ path: 'a', message: 'm' }])).problem.errors).toEqual([{ path: 'a', message: 'm' }]);
  });

  it('turns zod errors into 400 with one entry per field', () => {
    const result = z.object({ salutation: z.enum(['MR', 'MRS']), n: z.number() }).safeParse({ salutation: 'mr', n: 'x' });
    const { problem } = toProblem(result.error);
    expect(problem.status).toBe(400);
    expect(problem.errors?.map((e) => e.path).sort()).toEqual(['n', 'salutation']);
    expect(problem.message).toContain('salutation');
  });

  it('answers body parser failures as client errors', () => {
    expect(toProblem({ type: 'entity.parse.failed', status: 400 }).problem.status).toBe(400);
    expect(toProblem({ type: 'entity.too.large', status: 413, limit: 10 }).problem.status).toBe(413);
  });

  it('hides unknown errors behind an error id', () => {
    const { problem, unexpected } = toProblem(new Error('db password is hunter2'));
    expect(unexpected).toBe(true);
    expect(problem.status).toBe(500);
    expect(JSON.stringify(problem)).not.toContain('hunter2');
    expect(problem.error_id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('dependency failures', () => {
  it('answers 503 for an RPC timeout, without internals', () => {
    const err = Object.assign(new Error('RPC customer.x got no reply within 5000 ms'), { name: 'RpcTimeoutError' });
    const { problem, unexpected } = toProblem(err);
    expect(problem.status).toBe(503);
    expect(problem.message).not.toContain('customer.x');
    expect(unexpected).toBe(true);
  });
});
