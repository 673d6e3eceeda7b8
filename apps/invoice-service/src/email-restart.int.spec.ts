import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { SMTPServer } from 'smtp-server';
import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { startEmbeddedMongo } from '@inv/embedded-mongo';
import { createObjectStore, startEmbeddedS3, type EmbeddedS3 } from '@inv/objects';
import { freeServicesPortOffset, launchServices, stopServices, type RunningService } from '@inv/runtime';
import { deleteBrokerObjects, deleteRedisKeys, peerBus, testEnv, uniquePrefix, waitFor, serviceCaller } from '@inv/testing';
import { peerBillingSnapshot, servePeerRpcs, serveStubRenderer } from './testing/peer-rpcs';

jest.setTimeout(180_000);

/**
 * invoice-service as its own process is killed while its SMTP session is open:
 * - before the end of the message (the server holds the RCPT answer): the send command comes back after the restart
 *   and the e-mail is delivered exactly once;
 * - after the complete message went out (the server holds its answer to the end of data, having possibly delivered
 *   it): after the restart the e-mail is not sent again and is recorded `unconfirmed` (at most once).
 */
describe('invoice e-mail across a crash of invoice-service', () => {
  const prefix = uniquePrefix('mailkill');
  const company = 'cmp_mailkill';
  const bucket = 'mailkill';
  let portOffset = 0; // chosen in beforeAll: every service port free, below the ephemeral range
  let stopMongo: () => Promise<void>;
  let s3: EmbeddedS3;
  let smtp: SMTPServer;
  let peer: Bus<Messages>;
  let env: NodeJS.ProcessEnv;
  let running: RunningService[] = [];
  let base = '';
  let hold: 'no' | 'rcpt' | 'data-end' = 'no';
  let heldSessions = 0;
  let messagesReceived = 0; // complete messages the server got (answered or not)
  const delivered: string[][] = [];

  const launch = async () => {
    running = await launchServices({
      root: resolve(__dirname, '../../..'),
      services: ['invoice'],
      env,
      portOffset,
      stdio: 'ignore',
      readyTimeoutMs: 90_000,
    });
    base = running[0]!.url;
  };
  const call = serviceCaller(() => base, company);

  beforeAll(async () => {
    portOffset = await freeServicesPortOffset();
    const mongo = await startEmbeddedMongo();
    stopMongo = mongo.stop;
    s3 = await startEmbeddedS3();
    const store = createObjectStore({
      endpoint: s3.endpoint,
      accessKey: s3.accessKey,
      secretKey: s3.secretKey,
      bucket,
      presignTtlSeconds: 60,
    });
    await store.ensureBucket();
    smtp = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo(_address, _session, callback) {
        if (hold === 'rcpt') {
          heldSessions++;
          return; // never answered: the sender waits until it dies, before sending a byte of the message
        }
        callback();
      },
      onData(stream, session, callback) {
        stream.resume();
        stream.on('end', () => {
          messagesReceived++;
          if (hold === 'data-end') {
            heldSessions++;
            return; // never answered: the sender waits until it dies
          }
          delivered.push(session.envelope.rcptTo.map((r) => r.address));
          callback();
        });
      },
    });
    smtp.on('error', () => undefined); // a killed sender's connection resets (ECONNRESET): expected here
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    const smtpPort = (smtp as unknown as { server: { address(): AddressInfo } }).server.address().port;
    peer = peerBus(prefix);
    servePeerRpcs(peer, {
      // an English-speaking buyer: the mail's texts are the English ones; its address is a recipient it may get
      'customer.billing-snapshot.v1': () => ({
        ...peerBillingSnapshot,
        buyer: { ...peerBillingSnapshot.buyer, contact: { email: 'ap@buyer.example' } },
        language: 'en',
      }),
    });
    serveStubRenderer(peer, store);
    await peer.start();
    env = {
      ...process.env,
      ...testEnv(prefix, mongo.uri, {
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY: s3.accessKey,
        S3_SECRET_KEY: s3.secretKey,
        S3_BUCKET: bucket,
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      }),
    };
    delete env.PORT;
    await launch();
  });

  afterAll(async () => {
    await stopServices(running);
    await peer?.stop();
    await deleteBrokerObjects(prefix);
    await deleteRedisKeys(`${prefix}:`); // the change tokens of the peer data copies
    await new Promise<void>((r) => (smtp ? smtp.close(() => r()) : r()));
    await s3?.stop();
    await stopMongo?.();
  });

  const finalizedInvoice = async () => {
    const id = (await call('POST', '/invoice/', { customer_id: 1 })).body.invoice_id as number;
    await call('POST', `/invoice/${id}/positions`, {
      title: 'Consulting',
      quantity: 1,
      unit_id: 'HUR',
      unit_net_amount: 100,
      tax_rate: 0.19,
    });
    expect((await call('POST', `/invoice/${id}/job`, { task: 'process_invoice_flag_invoice_send_job' })).status).toBe(201);
    await waitFor(async () => ((await call('GET', `/invoice/${id}`)).body.status === 'OPEN' ? true : undefined), {
      timeoutMs: 30_000,
      what: 'finalized',
    });
    return id;
  };
  /** Sends with the server holding at `where`, kills the service (SIGKILL) while it waits, lets go and restarts it. */
  const sendAndKill = async (id: number, where: 'rcpt' | 'data-end') => {
    hold = where;
    heldSessions = 0;
    const sent = await call('POST', `/invoice/${id}/send_email`, { to: 'ap@buyer.example' });
    expect(sent.status).toBe(202);
    await waitFor(() => (heldSessions > 0 ? true : undefined), { timeoutMs: 20_000, what: 'the SMTP session to hang' });
    running[0]!.child.kill('SIGKILL');
    await new Promise((r) => running[0]!.child.once('exit', r));
    hold = 'no';
    await launch();
    return waitFor(
      async () => {
        const e = (await call('GET', `/invoice/${id}/emails`)).body.emails.find((x: { id: string }) => x.id === sent.body.email_id);
        return e && e.status !== 'queued' ? e : undefined;
      },
      { timeoutMs: 30_000, what: 'the e-mail after the restart' },
    );
  };

  it('delivers once after the service died before the end of the message', async () => {
    const id = await finalizedInvoice();
    const email = await sendAndKill(id, 'rcpt');
    expect(email.status).toBe('sent');
    expect(delivered).toEqual([['ap@buyer.example']]);
    expect(messagesReceived).toBe(1);
    expect((await call('GET', `/invoice/${id}`)).body.status).toBe('SENT');
  });

  it('does not send again after the service died waiting for the answer to the complete message: unconfirmed', async () => {
    const id = await finalizedInvoice();
    delivered.length = 0;
    messagesReceived = 0;
    const email = await sendAndKill(id, 'data-end');
    expect(email).toMatchObject({ status: 'unconfirmed', error: expect.stringMatching(/^not confirmed: .*not sent again/) });
    // settle time for a wrong second attempt (the command was redelivered and handled: the record says so)
    await new Promise((r) => setTimeout(r, 1_000));
    expect(messagesReceived).toBe(1); // the one the server holds; no second copy came
    expect(delivered).toEqual([]); // this server never answered it; a real one may have delivered it
    expect((await call('GET', `/invoice/${id}`)).body.status).toBe('OPEN'); // nobody knows whether it arrived
  });
});
