import { randomUUID } from 'node:crypto';
import { isTestCompany } from '@inv/contracts';
import type { OutboxMessage } from '@inv/outbox';
import { eventMessage, type CommandOf } from '@inv/runtime';
import type { DeliveryDoc } from '../db/emails';
import { SendAborted, type MailSender } from '../sender';
import type { MailDeps } from '../deps';

type SendMail = CommandOf<'mail.send.v1'>;

/** SMTP reply codes 5xx are permanent (RFC 5321); 4xx and connection errors are worth a retry. */
const smtpCodeOf = (err: unknown) => (err as { responseCode?: number }).responseCode;
const isPermanent = (code: number | undefined) => code !== undefined && code >= 500 && code < 600;

export const UNCONFIRMED_REASON =
  'not confirmed: the complete message went to the mail server, but the service stopped (or lost the connection) before the ' +
  "server's answer; it may have been delivered and is not sent again, so that no one gets it twice";

/** Claims tried in a row before giving the command back to the bus (others keep changing the record meanwhile). */
const CLAIM_TRIES = 3;

/**
 * The mail module: sends one e-mail and reports the outcome as an event, at most once per email id, also across
 * crashes, kills and duplicate or redelivered commands:
 *
 * 1. The delivery record is claimed (db/emails.ts DeliveryDoc) before anything goes to the server.
 * 2. The message goes out as a stream that ends only after the record moved from `sending` to `committing` under the
 *    handler's own claim (mail/sender.ts): the end-of-data mark, which alone makes the server accept it, follows that
 *    write. A handler that lost its claim to a redelivery drops the connection before the mark.
 * 3. A command finding `committing` (its holder died between the mark and the answer, a window of one round trip)
 *    resolves it as `unconfirmed` and does not send: at most once. A command finding `sending` takes it over and
 *    sends: the earlier holder never sent the mark (and cannot any more).
 * 4. Outcomes are recorded under the claim and reported with a fixed outbox id; a report that is already in the
 *    outbox (E11000 on `mail-sent-<id>` and the like) is already recorded, never an error, so nothing parks.
 *
 * The Message-ID derives from the email id. Temporary failures (4xx, connection errors before the mark) are
 * retried by the bus with backoff; the last attempt and permanent (5xx) answers fail it with the server's reply.
 */
export async function deliverMail(deps: MailDeps, msg: SendMail, attempt: number): Promise<void> {
  const id = msg.data.emailId;
  // a copy of this command (the relay published it again, the broker redelivered it) is being sent by this process
  // right now: that handler reports the outcome
  if (deps.mail.inFlight.has(id)) return;
  deps.mail.inFlight.add(id);
  try {
    await deliver(deps, msg, attempt);
  } finally {
    deps.mail.inFlight.delete(id);
  }
}

async function deliver(deps: MailDeps, msg: SendMail, attempt: number): Promise<void> {
  const d = msg.data;
  const messageId = `<${d.emailId}@invoicing.mail>`;
  const report = reporter(deps, msg, messageId);

  let claim: string | undefined;
  for (let i = 0; i < CLAIM_TRIES && !claim; i++) {
    const prior = await deps.emails.deliveryAcrossCompanies(d.emailId);
    if (prior && isSettled(prior)) return report(prior);
    if (prior && isUncertain(prior))
      return report(await deps.emails.resolveUncertainAcrossCompanies(d.emailId, UNCONFIRMED_REASON, deps.now()));
    const mine = randomUUID();
    if (await deps.emails.claimDeliveryAcrossCompanies(d.emailId, mine, messageId, deps.now())) claim = mine;
  }
  if (!claim) throw new Error(`mail ${d.emailId}: the delivery record kept changing; the bus tries again`);

  let committed = false;
  try {
    // a test twin's mail is recorded, never handed to SMTP (docs/test-mode.md): its attachments are named, not read
    const recorded = isTestCompany(msg.companyId);
    const sender = recorded ? testMailRecorder(deps, msg) : deps.mail.sender;
    const attachments = recorded
      ? []
      : await Promise.all(
          d.attachments.map(async (a) => ({
            filename: a.filename,
            contentType: a.contentType,
            content: await deps.objects.getStream(a.key),
          })),
        );
    const info = await sender.send(
      { from: d.from, replyTo: d.replyTo, to: d.to, cc: d.cc, bcc: d.bcc, subject: d.subject, text: d.text, messageId, attachments },
      async () => (committed = await deps.emails.commitDeliveryAcrossCompanies(d.emailId, claim, deps.now())),
    );
    if (await deps.emails.finishDeliveryAcrossCompanies(d.emailId, claim, { status: 'sent', response: info.response }, deps.now()))
      await report({ status: 'sent', response: info.response }, info.accepted);
  } catch (err) {
    if (err instanceof SendAborted) return; // a redelivery took the record over; it sends and reports
    const code = smtpCodeOf(err);
    const permanent = isPermanent(code);
    const answer = (err as { response?: string }).response ?? (err as Error).message;
    if (committed && code === undefined) {
      // the mark went out and no answer came: the server may have accepted it
      const reason = `${UNCONFIRMED_REASON} (${answer})`;
      if (await deps.emails.finishDeliveryAcrossCompanies(d.emailId, claim, { status: 'unconfirmed', response: reason }, deps.now()))
        await report({ status: 'unconfirmed', response: reason });
      return;
    }
    if (!permanent && attempt < deps.mail.maxAttempts) {
      // not accepted (4xx, or nothing reached the mark): safe to send again, the bus retries with backoff
      await deps.emails.finishDeliveryAcrossCompanies(d.emailId, claim, { status: 'deferred', response: answer }, deps.now());
      throw err;
    }
    const reason = permanent
      ? `the mail server refused the message: ${answer}`
      : `the mail server could not be reached or deferred the message ${attempt} times: ${answer}`;
    if (await deps.emails.finishDeliveryAcrossCompanies(d.emailId, claim, { status: 'failed', response: reason }, deps.now()))
      await report({ status: 'failed', response: reason }, undefined, permanent ? code : undefined, permanent);
  }
}

/**
 * The sender of a test twin's mail: records the whole message (GET /test-mails) and reports it accepted, through the
 * same claim and end-of-data gate as a real send, so a redelivered command records and reports it once.
 */
function testMailRecorder(deps: MailDeps, msg: SendMail): MailSender {
  const d = msg.data;
  return {
    async send(mail, beforeEnd) {
      await deps.testMails.capture({
        _id: d.emailId,
        companyId: msg.companyId,
        subjectRef: d.subjectRef,
        from: mail.from,
        ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
        to: mail.to,
        cc: mail.cc,
        bcc: mail.bcc,
        subject: mail.subject,
        text: mail.text,
        attachments: d.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType })),
        capturedAt: deps.now(),
      });
      if (!(await beforeEnd())) throw new SendAborted();
      return { response: '250 recorded in test mode, not sent (GET /test-mails)', accepted: [...mail.to, ...mail.cc, ...mail.bcc] };
    },
    close: () => undefined,
  };
}

const isSettled = (r: DeliveryDoc) => r.status === 'sent' || r.status === 'failed' || r.status === 'unconfirmed';
/** committing, or the claimless `sending` of the version before claims (it held `sending` through the whole session). */
const isUncertain = (r: DeliveryDoc) => r.status === 'committing' || (r.status === 'sending' && r.claim === undefined);

/**
 * Publishes the outcome through the outbox under a fixed id per outcome; a second report of the same outcome
 * (a redelivered command, a retry after a crash) meets its first in the outbox: already recorded.
 */
function reporter(deps: MailDeps, msg: SendMail, messageId: string) {
  const d = msg.data;
  return async (
    outcome: Pick<DeliveryDoc, 'status' | 'response'> | null,
    accepted: string[] = [...d.to, ...d.cc, ...d.bcc],
    smtpCode?: number,
    permanent = true,
  ): Promise<void> => {
    let event: OutboxMessage;
    if (!outcome || !isSettled(outcome as DeliveryDoc)) return; // its holder reports it
    if (outcome.status === 'sent') {
      event = eventMessage(
        'mail.sent.v1',
        msg.companyId,
        { emailId: d.emailId, subjectRef: d.subjectRef, messageId, accepted, response: outcome.response },
        `mail-sent-${d.emailId}`,
      );
    } else {
      const unconfirmed = outcome.status === 'unconfirmed';
      event = eventMessage(
        'mail.failed.v1',
        msg.companyId,
        {
          emailId: d.emailId,
          subjectRef: d.subjectRef,
          reason: outcome.response ?? (unconfirmed ? UNCONFIRMED_REASON : 'failed'),
          permanent,
          smtpCode,
          ...(unconfirmed ? { unconfirmed: true } : {}),
        },
        unconfirmed ? `mail-unconfirmed-${d.emailId}` : `mail-failed-${d.emailId}`,
      );
    }
    try {
      await deps.publish(event);
    } catch (err) {
      if ((err as { code?: number }).code !== 11000) throw err; // E11000 on the outbox id: reported before
    }
  };
}
