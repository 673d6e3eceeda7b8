import type { Envelope } from '@inv/bus';
import type { messages } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import type { z } from 'zod';
import type { InvoiceDeps } from './deps';

type SendMail = z.output<(typeof messages.commands)['mail.send.v1']>;

/** SMTP reply codes 5xx are permanent (RFC 5321); 4xx and connection errors are worth a retry. */
const smtpCodeOf = (err: unknown) => (err as { responseCode?: number }).responseCode;
const isPermanent = (code: number | undefined) => code !== undefined && code >= 500 && code < 600;

/**
 * The mail module: sends one e-mail through the SMTP transport (nodemailer) and reports the outcome as an
 * event. Idempotent: a delivery already sent (or failed for good) is reported again, never sent again. The
 * Message-ID derives from the email id, so even a send repeated after a crash between the server's accept
 * and our record is one message to the recipient's deduplication. Temporary failures are retried by the bus
 * with backoff; the last attempt and permanent (5xx) answers fail it with the server's reply.
 */
export async function deliverMail(deps: InvoiceDeps, msg: Envelope<SendMail>, attempt: number) {
  const d = msg.data;
  const messageId = `<${d.emailId}@invoicing.mail>`;
  const report = async (
    outcome: { sent: true; response?: string; accepted: string[] } | { sent: false; reason: string; permanent: boolean; smtpCode?: number },
  ) => {
    const event = outcome.sent
      ? eventMessage(
          'mail.sent.v1',
          msg.companyId,
          { emailId: d.emailId, subjectRef: d.subjectRef, messageId, accepted: outcome.accepted, response: outcome.response },
          `mail-sent-${d.emailId}`,
        )
      : eventMessage(
          'mail.failed.v1',
          msg.companyId,
          {
            emailId: d.emailId,
            subjectRef: d.subjectRef,
            reason: outcome.reason,
            permanent: outcome.permanent,
            smtpCode: outcome.smtpCode,
          },
          `mail-failed-${d.emailId}`,
        );
    await deps.publish(event);
  };
  const prior = await deps.emails.delivery(d.emailId);
  if (prior?.status === 'sent') return report({ sent: true, response: prior.response, accepted: [...d.to, ...d.cc, ...d.bcc] });
  if (prior?.status === 'failed') return report({ sent: false, reason: prior.response ?? 'failed', permanent: true });
  await deps.emails.markDelivery(d.emailId, { status: 'sending', messageId, updatedAt: deps.now() });
  try {
    const attachments = await Promise.all(
      d.attachments.map(async (a) => ({ filename: a.filename, contentType: a.contentType, content: await deps.objects.getStream(a.key) })),
    );
    const info = await deps.mail.transport.sendMail({
      from: d.from,
      replyTo: d.replyTo,
      to: d.to,
      cc: d.cc,
      bcc: d.bcc,
      subject: d.subject,
      text: d.text,
      messageId,
      attachments,
    });
    await deps.emails.markDelivery(d.emailId, { status: 'sent', messageId, response: info.response, updatedAt: deps.now() });
    await report({ sent: true, response: info.response, accepted: (info.accepted ?? []).map(String) });
  } catch (err) {
    const code = smtpCodeOf(err);
    const permanent = isPermanent(code);
    if (!permanent && attempt < deps.mail.maxAttempts) throw err; // temporary: the bus retries with backoff
    const answer = (err as { response?: string }).response ?? (err as Error).message;
    const reason = permanent
      ? `the mail server refused the message: ${answer}`
      : `the mail server could not be reached or deferred the message ${attempt} times: ${answer}`;
    await deps.emails.markDelivery(d.emailId, { status: 'failed', messageId, response: reason, updatedAt: deps.now() });
    await report({ sent: false, reason, permanent, smtpCode: code });
  }
}
