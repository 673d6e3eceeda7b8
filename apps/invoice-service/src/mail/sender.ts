import { Readable } from 'node:stream';
import MailComposer from 'nodemailer/lib/mail-composer';
import SMTPTransport from 'nodemailer/lib/smtp-transport';

/** One e-mail as the mail module hands it to the sender. */
export interface OutgoingMail {
  from: string;
  replyTo?: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  text: string;
  messageId: string;
  attachments: { filename: string; contentType: string; content: Readable }[];
}

/** The SMTP server's answer to the end of the message. */
export interface SentInfo {
  response: string;
  accepted: string[];
}

/** beforeEnd answered false: the connection was dropped before the end-of-data mark; the server discards the message. */
export class SendAborted extends Error {
  constructor() {
    super('the send was given up before the end of the message (another handler holds the delivery)');
    this.name = 'SendAborted';
  }
}

export interface MailSender {
  /**
   * Sends one e-mail. `beforeEnd` runs once the server took the envelope (MAIL FROM, RCPT TO, DATA) and every byte of
   * the message went to the connection, right before the end-of-data mark (CRLF . CRLF), the only thing that makes an
   * SMTP server accept a message (RFC 5321 4.1.1.4; a connection closed before it is a transaction that never
   * happened). Answering true sends the mark; false (or a rejection) drops the connection without it and the send
   * rejects (SendAborted for false). So a crash, a kill or a lost claim before `beforeEnd` resolved cannot deliver.
   */
  send(mail: OutgoingMail, beforeEnd: () => Promise<boolean>): Promise<SentInfo>;
  close(): void;
}

/** The message as MIME (nodemailer's composer: headers, text, attachments; BCC only in its envelope). */
function compose(mail: OutgoingMail) {
  return new MailComposer({
    from: mail.from,
    replyTo: mail.replyTo,
    to: mail.to,
    cc: mail.cc,
    bcc: mail.bcc,
    subject: mail.subject,
    text: mail.text,
    messageId: mail.messageId,
    attachments: mail.attachments,
  }).compile();
}

/**
 * The message, read only when the SMTP connection asks for it (after the server's 354 to DATA), ending only after
 * `beforeEnd` said so: smtp-connection writes the end-of-data mark when this stream ends and never when it fails.
 */
function gated(message: ReturnType<typeof compose>, beforeEnd: () => Promise<boolean>): Readable {
  async function* body() {
    for await (const chunk of message.createReadStream()) yield chunk as Buffer;
    if (!(await beforeEnd())) throw new SendAborted();
  }
  return Readable.from(body(), { objectMode: false });
}

/**
 * Sends over `SMTP_URL` with nodemailer's SMTP transport (connection, STARTTLS, AUTH, proxies as nodemailer does them),
 * given the message as a stream it reads only after DATA (see `gated`). Without a URL (development only) the message
 * is composed and dropped, as nodemailer's JSON transport did.
 */
export function createMailSender(smtpUrl: string | undefined): MailSender {
  if (!smtpUrl) {
    return {
      async send(mail, beforeEnd) {
        for await (const chunk of gated(compose(mail), beforeEnd)) void chunk;
        return { response: '250 not delivered: SMTP_URL is unset', accepted: [...mail.to, ...mail.cc, ...mail.bcc] };
      },
      close: () => undefined,
    };
  }
  const transport = new SMTPTransport(smtpUrl);
  return {
    send(mail, beforeEnd) {
      const composed = compose(mail);
      // the transport's own entry point with a message that only has what it reads: the envelope (bare addresses,
      // BCC included), the id and the stream
      const message = {
        getEnvelope: () => composed.getEnvelope(),
        messageId: () => mail.messageId,
        createReadStream: () => gated(composed, beforeEnd),
      };
      return new Promise<SentInfo>((resolve, reject) =>
        transport.send({ data: {}, message } as unknown as Parameters<SMTPTransport['send']>[0], (err, info) => {
          // an error of the message stream (SendAborted too) comes back as itself, with code ESTREAM
          if (err) return reject(err);
          resolve({ response: info.response, accepted: (info.accepted ?? []).map(String) });
        }),
      );
    },
    close: () => transport.close(),
  };
}
