/**
 * `npm run bench:inbound-finalize`: what receiving e-invoices costs a finalization (the harness:
 * finalize-under-load.ts). Phases alternate between no upload and UPLOADERS (10) clients each uploading a typical
 * XRechnung (the kit's 01.01a UBL example, about 6 KB) to POST /inbound/ and long-polling its job to the end, again and
 * again, for the whole phase: none, uploads, none, uploads (PHASES). Besides the harness's figures it prints the
 * documents received in each phase and their p50/p99 (POST -> job ended). The target: p99 with uploads within 10 % of
 * none.
 *
 * Env: UPLOADERS (10), INBOUND_WORKERS (the service's default when unset), INBOUND_CONFORMANCE_DIR (the kit), and the
 * harness's WARMUP, PER_PHASE, PHASES, LOG_LEVEL, PROFILE, PROFILE_TOP.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { env, finalizeUnderLoad, root, runBench, sleep, type BenchSystem } from './finalize-under-load';
import { pct } from './proc';

const UPLOADERS = Number(env('UPLOADERS', '10'));
const KIT = process.env.INBOUND_CONFORMANCE_DIR ?? resolve(root, '../shared/conformance');
const XRECHNUNG = readFileSync(join(KIT, 'xrechnung/examples/01.01a-INVOICE_ubl.xml'));

/** One upload: POST /inbound/ (202), then its job long-polled to the end; the time from POST to the end. */
async function oneUpload({ base, key, must }: BenchSystem): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${base}/inbound/`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/xml' },
    body: XRECHNUNG,
  });
  const job = (await res.json()) as { id: number; status: string };
  if (res.status !== 202) throw new Error(`POST /inbound/: ${res.status} ${JSON.stringify(job)}`);
  for (let j = job; j.status === 'queued' || j.status === 'started';)
    j = (await must('GET', `/inbound/${job.id}/job?wait=25`)) as unknown as typeof job;
  return performance.now() - started;
}

const times = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(0)} / p99 ${pct(xs, 99).toFixed(0)} ms`;

runBench(async () => {
  /** Every upload of the loaded phases, for the summary. */
  const all: number[] = [];
  await finalizeUnderLoad({
    mode: 'uploads',
    service: 'inbound',
    env: { INBOUND_CONFORMANCE_DIR: KIT },
    async warmUp(sys) {
      for (let i = 0; i < 3; i++) await oneUpload(sys);
    },
    async start(sys, loaded) {
      if (!loaded) return async () => '';
      // UPLOADERS clients uploading one document after another until the phase ends
      const uploads: number[] = [];
      let stop = false;
      const clients = Array.from({ length: UPLOADERS }, async () => {
        while (!stop) uploads.push(await oneUpload(sys));
      });
      // the uploaders' first documents are on their way before the first finalization
      await sleep(500);
      return async () => {
        stop = true;
        await Promise.all(clients);
        all.push(...uploads);
        return `${uploads.length} documents received, ${times(uploads)}`;
      };
    },
    label: (loaded) => (loaded ? `${UPLOADERS} uploaders (${all.length} documents, ${times(all)})` : 'no upload'),
  });
});
