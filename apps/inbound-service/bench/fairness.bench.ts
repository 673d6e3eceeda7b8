/**
 * `npm run -s bench:inbound-fairness`: what one company's heavy uploads cost another company's receiving. Starts
 * inbound-service in this process (embedded MongoDB and S3, the RabbitMQ of the tests) and measures, in one run:
 *
 * 1. victim alone: VICTIMS (4) uploads of a small XRechnung (the kit's 01.01a UBL, about 6 KB) one after another,
 *    each POST /inbound/ -> its job ended;
 * 2. attacker alone: HEAVY (2) heavy documents within the bounds (the same invoice with LINES (200) lines), read one
 *    after another (CPU per heavy document), and the red team's document (200,000 elements in 4.6 MB), refused at upload;
 * 3. victim under attack: the attacker keeps QUEUED (4) heavy documents waiting the whole time while the victim
 *    uploads VICTIMS documents as in 1.
 *
 * Reports the victim's latency (p50 / max) in 1 and 3 and the CPU per document (every thread of this process, the
 * embedded stores included, plus the xmllint programs it ran). Env: INBOUND_CPU_SHARE (the service's default 0.25
 * unless set), INBOUND_WORKERS (1), VICTIMS, HEAVY, LINES, QUEUED, INBOUND_CONFORMANCE_DIR.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmbeddedS3 } from '@inv/objects';
import { deleteBrokerObjects, identityHeaders, testEnv, testMongo, uniquePrefix } from '@inv/testing';
import { inboundConfig } from '../src/config';
import { createInboundService } from '../src/inbound-service';
import { defaultKitDir } from '../src/inspection/conformance-kit';

const num = (name: string, def: number) => Number(process.env[name] ?? def);
const VICTIMS = num('VICTIMS', 4);
const HEAVY = num('HEAVY', 2);
const LINES = num('LINES', 200);
const QUEUED = num('QUEUED', 4);
const KIT = process.env.INBOUND_CONFORMANCE_DIR ?? defaultKitDir();
const XR_UBL = readFileSync(join(KIT, 'xrechnung/examples/01.01a-INVOICE_ubl.xml'), 'utf8');
const LINE = /<cac:InvoiceLine>[\s\S]*?<\/cac:InvoiceLine>/.exec(XR_UBL)![0];
const HEAVY_DOC = XR_UBL.replace(
  LINE,
  Array.from({ length: LINES }, (_, i) => LINE.replace(/<cbc:ID>[^<]*<\/cbc:ID>/, `<cbc:ID>${i + 1}</cbc:ID>`)).join(''),
);
const RED_TEAM = XR_UBL.replace('</cbc:Note>', `</cbc:Note>${'<cbc:Note>x</cbc:Note>'.repeat(200_000)}`);

/** CPU ms of this process (every thread) plus its finished children (xmllint), from /proc/self/stat (Linux; 0 elsewhere). */
function childCpuMs(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}
const cpuNow = () => ({ own: process.cpuUsage(), children: childCpuMs() });
const cpuSince = (from: ReturnType<typeof cpuNow>) => {
  const u = process.cpuUsage(from.own);
  return (u.user + u.system) / 1000 + (childCpuMs() - from.children);
};
const r = Math.round;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? 0;

async function main() {
  const prefix = uniquePrefix('inbbench');
  const mongo = await testMongo();
  const s3 = await startEmbeddedS3();
  const service = await createInboundService(
    inboundConfig.parse(
      testEnv(prefix, mongo.uri, {
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY: s3.accessKey,
        S3_SECRET_KEY: s3.secretKey,
        S3_BUCKET: `${prefix}-inbound`,
        INBOUND_CONFORMANCE_DIR: KIT,
        INBOUND_WORKERS: process.env.INBOUND_WORKERS ?? '1',
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
        ...(process.env.INBOUND_CPU_SHARE ? { INBOUND_CPU_SHARE: process.env.INBOUND_CPU_SHARE } : {}),
      }),
    ),
  );
  const base = (await service.start()).url;
  const call = async (company: string, method: string, path: string, body?: string, type?: string) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(type ? { 'content-type': type } : {}), ...(await identityHeaders(company)) },
      body,
    });
    return { status: res.status, body: (await res.json()) as { id: number; status: string; code?: string; length?: number } };
  };
  const upload = async (company: string, doc: string) => {
    const res = await call(company, 'POST', '/inbound/', doc, 'application/xml');
    if (res.status !== 202) throw new Error(`POST /inbound/: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id;
  };
  const ended = async (company: string, id: number) => {
    for (
      let job = (await call(company, 'GET', `/inbound/${id}/job`)).body;
      ;
      job = (await call(company, 'GET', `/inbound/${id}/job?wait=25`)).body
    )
      if (job.status !== 'queued' && job.status !== 'started') return job;
  };
  /** One victim upload after another: latency of each (POST -> job ended). */
  const victimRun = async (n: number) => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      await ended('cmp_victim', await upload('cmp_victim', XR_UBL));
      times.push(performance.now() - started);
    }
    return times;
  };
  try {
    await victimRun(3); // warm-up
    let cpu = cpuNow();
    const alone = await victimRun(VICTIMS);
    const victimCpu = cpuSince(cpu) / VICTIMS;

    cpu = cpuNow();
    let t = performance.now();
    for (let i = 0; i < HEAVY; i++) await ended('cmp_attacker', await upload('cmp_attacker', HEAVY_DOC));
    const heavy = { cpu: cpuSince(cpu) / HEAVY, wall: (performance.now() - t) / HEAVY };
    cpu = cpuNow();
    t = performance.now();
    const refused = await call('cmp_attacker', 'POST', '/inbound/', RED_TEAM, 'application/xml');
    const redTeam = { status: refused.status, code: refused.body.code, cpu: cpuSince(cpu), wall: performance.now() - t };

    // the attacker keeps QUEUED heavy documents waiting while the victim uploads
    let attacking = true;
    let attackerRead = 0;
    const attacker = Array.from({ length: QUEUED }, async () => {
      while (attacking) {
        await ended('cmp_attacker', await upload('cmp_attacker', HEAVY_DOC));
        attackerRead++;
      }
    });
    while (((await call('cmp_attacker', 'GET', '/inbound/?status=PROCESSING&limit=100')).body.length ?? 0) < QUEUED)
      await new Promise((res) => setTimeout(res, 100));
    const underAttack = await victimRun(VICTIMS);
    attacking = false;
    await Promise.all(attacker);

    const fmt = (xs: number[]) => ({ p50_ms: r(pct(xs, 50)), max_ms: r(Math.max(...xs)) });
    console.log(
      JSON.stringify(
        {
          cpu_share: process.env.INBOUND_CPU_SHARE ?? '0.25 (default)',
          heavy_document: { bytes: HEAVY_DOC.length, lines: LINES, cpu_ms: r(heavy.cpu), wall_ms: r(heavy.wall) },
          red_team_document: {
            bytes: RED_TEAM.length,
            status: redTeam.status,
            code: redTeam.code,
            cpu_ms: r(redTeam.cpu),
            wall_ms: r(redTeam.wall),
          },
          victim: { bytes: XR_UBL.length, cpu_ms_per_document: r(victimCpu) },
          victim_latency_alone: fmt(alone),
          victim_latency_under_attack: { ...fmt(underAttack), attacker_queued: QUEUED, attacker_documents_read_meanwhile: attackerRead },
        },
        null,
        2,
      ),
    );
  } finally {
    await service.stop();
    await s3.stop();
    await deleteBrokerObjects(prefix);
    await mongo.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
