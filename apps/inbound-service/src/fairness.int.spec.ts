import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { Agent, fetch as undiciFetch } from 'undici';
import { startEmbeddedS3, type EmbeddedS3 } from '@inv/objects';
import { deleteBrokerObjects, identityHeaders, testEnv, testMongo, uniquePrefix, waitFor } from '@inv/testing';
import { inboundConfig } from './config';
import { createInboundService } from './inbound-service';
import { defaultKitDir } from './inspection/conformance-kit';

jest.setTimeout(300_000);

const KIT = process.env.INBOUND_CONFORMANCE_DIR ?? defaultKitDir();
const XR_UBL = readFileSync(join(KIT, 'xrechnung/examples/01.01a-INVOICE_ubl.xml'), 'utf8');
const CII = readFileSync(join(KIT, 'en16931/cii/examples/CII_example1.xml'), 'utf8');

/** The XRechnung example with `n` invoice lines: a real document, heavier with every line (about 25 elements each). */
function withLines(n: number): string {
  const line = /<cac:InvoiceLine>[\s\S]*?<\/cac:InvoiceLine>/.exec(XR_UBL)![0];
  const lines = Array.from({ length: n }, (_, i) => line.replace(/<cbc:ID>[^<]*<\/cbc:ID>/, `<cbc:ID>${i + 1}</cbc:ID>`));
  return XR_UBL.replace(line, lines.join(''));
}

/** The red team's document: a UBL invoice with 200,000 notes (about 4.6 MB, under the 5 MiB limit). */
const HEAVY = XR_UBL.replace('</cbc:Note>', `</cbc:Note>${'<cbc:Note>x</cbc:Note>'.repeat(200_000)}`);

async function facturX(xml: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.addPage();
  await pdf.attach(Buffer.from(xml), 'factur-x.xml', { mimeType: 'text/xml', description: 'Factur-X invoice' });
  return Buffer.from(await pdf.save());
}

async function startService(prefix: string, mongoUri: string, s3: EmbeddedS3, extra: Record<string, string>) {
  const service = await createInboundService(
    inboundConfig.parse(
      testEnv(prefix, mongoUri, {
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY: s3.accessKey,
        S3_SECRET_KEY: s3.secretKey,
        S3_BUCKET: `${prefix}-inbound`,
        INBOUND_CONFORMANCE_DIR: KIT,
        INBOUND_WORKERS: '1',
        ...extra,
      }),
    ),
  );
  return { service, base: (await service.start()).url };
}

const noKeepAlive = new Agent({ pipelining: 0 });
afterAll(() => noKeepAlive.close());

async function send(base: string, companyId: string, method: string, path: string, body?: string | Buffer, contentType?: string) {
  const res = await undiciFetch(`${base}${path}`, {
    dispatcher: noKeepAlive,
    method,
    headers: { ...(contentType ? { 'content-type': contentType } : {}), ...(await identityHeaders(companyId)) },
    body,
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: (text ? JSON.parse(text) : undefined) as any };
}

async function jobEnd(base: string, companyId: string, id: number) {
  let job = (await send(base, companyId, 'GET', `/inbound/${id}/job`)).body;
  while (job.status === 'queued' || job.status === 'started') job = (await send(base, companyId, 'GET', `/inbound/${id}/job?wait=25`)).body;
  return job;
}

describe('one company cannot stall another company receiving', () => {
  const prefix = uniquePrefix('inbfair');
  let mongo: Awaited<ReturnType<typeof testMongo>>;
  let s3: EmbeddedS3;
  let sys: Awaited<ReturnType<typeof startService>>;

  beforeAll(async () => {
    mongo = await testMongo();
    s3 = await startEmbeddedS3();
    // the share of a core 1: no rest between documents, so that the order is what the test sees
    sys = await startService(prefix, mongo.uri, s3, { INBOUND_CPU_SHARE: '1' });
  });
  afterAll(async () => {
    await sys?.service.stop();
    await s3?.stop();
    await deleteBrokerObjects(prefix);
    await mongo?.stop();
  });

  it('refuses the red team document (200,000 elements in 4.6 MB) at upload: 400 XML_TOO_COMPLEX, nothing stored', async () => {
    expect(HEAVY.length).toBeLessThan(5 * 1024 * 1024);
    const res = await send(sys.base, 'cmp_heavy', 'POST', '/inbound/', HEAVY, 'application/xml');
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'XML_TOO_COMPLEX' });
    expect(res.type).toContain('application/problem+json');
    expect(res.body.detail).toMatch(/more than 50000 elements/);
    expect((await send(sys.base, 'cmp_heavy', 'GET', '/inbound/')).body).toEqual([]);
  });

  it('the same document inside a ZUGFeRD PDF: accepted, then its job fails once with XML_TOO_COMPLEX', async () => {
    const heavyCii = CII.replace(
      /<\/ram:IncludedNote>/,
      `</ram:IncludedNote>${'<ram:IncludedNote><ram:Content>x</ram:Content></ram:IncludedNote>'.repeat(30_000)}`,
    );
    const accepted = await send(sys.base, 'cmp_heavy', 'POST', '/inbound/', await facturX(heavyCii), 'application/pdf');
    expect(accepted.status).toBe(202);
    const job = await jobEnd(sys.base, 'cmp_heavy', accepted.body.id);
    expect(job).toMatchObject({ status: 'failed', error_code: 'XML_TOO_COMPLEX' });
    const doc = await sys.service.deps.documents.get('cmp_heavy' as never, accepted.body.id);
    expect(doc).toMatchObject({ status: 'REJECTED', attempts: 1, error: { code: 'XML_TOO_COMPLEX' } });
  });

  it("a victim's small XRechnung is read next, not after the attacker's queued heavy documents", async () => {
    const heavy = withLines(80); // within the bounds, a few seconds of validation each
    const attacker: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await send(sys.base, 'cmp_attacker', 'POST', '/inbound/', heavy, 'application/xml');
      expect(res.status).toBe(202);
      attacker.push(res.body.id);
    }
    // the attacker's first document is being read
    await waitFor(async () => (await sys.service.deps.documents.get('cmp_attacker' as never, attacker[0]!))?.startedAt);
    const sent = Date.now();
    const victim = await send(sys.base, 'cmp_victim', 'POST', '/inbound/', XR_UBL, 'application/xml');
    expect(victim.status).toBe(202);
    const job = await jobEnd(sys.base, 'cmp_victim', victim.body.id);
    const latency = Date.now() - sent;
    expect(job).toMatchObject({ status: 'finished' });
    expect((await send(sys.base, 'cmp_victim', 'GET', `/inbound/${victim.body.id}`)).body).toMatchObject({
      status: 'RECEIVED',
      valid: true,
    });
    // read right after the attacker's document in progress: none of the attacker's other documents started before it ended
    const docs = await Promise.all(attacker.map((id) => sys.service.deps.documents.get('cmp_attacker' as never, id)));
    const victimDoc = await sys.service.deps.documents.get('cmp_victim' as never, victim.body.id);
    const startedBeforeVictimEnded = docs.filter((d) => d?.startedAt && d.startedAt < victimDoc!.finishedAt!).map((d) => d!.id);
    expect(startedBeforeVictimEnded).toEqual([attacker[0]]);
    // and the attacker's documents are all read in the end, each once
    for (const id of attacker) expect(await jobEnd(sys.base, 'cmp_attacker', id)).toMatchObject({ status: 'finished' });
    const read = await Promise.all(attacker.map((id) => sys.service.deps.documents.get('cmp_attacker' as never, id)));
    expect(read.map((d) => d?.attempts)).toEqual([1, 1, 1, 1]);
    console.log(`victim latency ${latency} ms behind 4 attacker documents of ${heavy.length} bytes`);
  });

  it('a document accepted while no process read it (its command acknowledged, then a crash) is found by the sweep', async () => {
    const accepted = await send(sys.base, 'cmp_sweep', 'POST', '/inbound/', XR_UBL, 'application/xml');
    await jobEnd(sys.base, 'cmp_sweep', accepted.body.id);
    // a second document stored as receiveDocument does, without its command
    const doc = (await sys.service.deps.documents.get('cmp_sweep' as never, accepted.body.id))!;
    const { _id, ...rest } = doc;
    await sys.service.deps.documents.insert({
      ...rest,
      id: 99,
      status: 'PROCESSING',
      startedAt: undefined,
      finishedAt: undefined,
      leaseUntil: undefined,
      attempts: 0,
      valid: false,
      summary: { errorCount: 0 },
    } as never);
    const swept = Date.now();
    await sys.service.scheduler.sweep();
    expect(await jobEnd(sys.base, 'cmp_sweep', 99)).toMatchObject({ status: 'finished' });
    expect(await sys.service.deps.documents.get('cmp_sweep' as never, 99)).toMatchObject({ status: 'RECEIVED', attempts: 1 });
    expect(Date.now() - swept).toBeLessThan(15_000); // this sweep, not the next periodic one
  });
});

describe('a validation timeout fails the document once', () => {
  const prefix = uniquePrefix('inbtime');
  let mongo: Awaited<ReturnType<typeof testMongo>>;
  let s3: EmbeddedS3;
  let sys: Awaited<ReturnType<typeof startService>>;

  beforeAll(async () => {
    mongo = await testMongo();
    s3 = await startEmbeddedS3();
    sys = await startService(prefix, mongo.uri, s3, { INBOUND_CPU_SHARE: '1', INBOUND_VALIDATION_TIMEOUT_MS: '500' });
  });
  afterAll(async () => {
    await sys?.service.stop();
    await s3?.stop();
    await deleteBrokerObjects(prefix);
    await mongo?.stop();
  });

  it('REJECTED with VALIDATION_TIMEOUT after one attempt, not retried by the bus', async () => {
    const accepted = await send(sys.base, 'cmp_slow', 'POST', '/inbound/', withLines(300), 'application/xml');
    expect(accepted.status).toBe(202);
    const job = await jobEnd(sys.base, 'cmp_slow', accepted.body.id);
    expect(job).toMatchObject({ status: 'failed', error_code: 'VALIDATION_TIMEOUT', error_message: expect.stringMatching(/too heavy/) });
    await new Promise((r) => setTimeout(r, 1500)); // a retry (the bus's first after 1 s) would count another attempt
    expect(await sys.service.deps.documents.get('cmp_slow' as never, accepted.body.id)).toMatchObject({
      status: 'REJECTED',
      attempts: 1,
      error: { code: 'VALIDATION_TIMEOUT' },
    });
  });
});
