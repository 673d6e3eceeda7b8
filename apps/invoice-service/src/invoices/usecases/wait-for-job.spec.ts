import { asCompanyId } from '@inv/contracts';
import { EventEmitter } from 'node:events';
import type { JobDoc } from '../db/jobs';
import type { InvoicesDeps } from '../deps';
import { waitForJob } from './wait-for-job';

const C1 = asCompanyId('c1');
const job = (status: JobDoc['status']): JobDoc => ({
  _id: 'j1',
  companyId: C1,
  invoiceId: 7,
  task: 't',
  status,
  reservationId: 'r',
  createdAt: new Date(0),
});

describe('waitForJob', () => {
  const setup = (stored: JobDoc) => {
    let reads = 0;
    const deps = {
      jobs: { get: async () => (reads++, stored) },
      jobSignals: new EventEmitter(),
    } as unknown as InvoicesDeps;
    return { deps, reads: () => reads };
  };

  it('answers with the job a status change of this process signalled, without reading it again', async () => {
    const { deps, reads } = setup(job('queued'));
    const waiting = waitForJob(deps, C1, 7, 'j1', 20, new AbortController().signal);
    await new Promise((r) => setImmediate(r));
    deps.jobSignals.emit('j1', job('started'));
    expect((await waiting).status).toBe('started');
    expect(reads()).toBe(1); // the first look only
  });

  it('reads the job again when the signal carries none (a redelivered message that changed nothing)', async () => {
    const stored = job('queued');
    const { deps, reads } = setup(stored);
    const waiting = waitForJob(deps, C1, 7, 'j1', 20, new AbortController().signal);
    await new Promise((r) => setImmediate(r));
    stored.status = 'finished';
    deps.jobSignals.emit('j1', undefined);
    expect((await waiting).status).toBe('finished');
    expect(reads()).toBe(2);
  });
});
