/**
 * The face of the mail feature (invoice e-mails, their delivery through SMTP and outcome, the company's e-mail
 * texts): what other features and the service's entry points may use. eslint.config.mjs refuses imports that reach
 * past this file.
 */
export type { MailDeps } from './deps';
// what a reminder's e-mail checks and counts like an invoice's
export { mayUseFreeRecipients, normaliseNewlines, unsafeTextProblem } from './domain/email-rules';
export { MAX_RECIPIENTS, countAgainstLimits, recipientsNotKnown } from './usecases/send-invoice-email';
// for the consumers of mail.send.v1, mail.sent.v1 and mail.failed.v1
export { deliverMail } from './usecases/deliver-mail';
export { recordMailFailed, recordMailSent } from './usecases/record-mail-outcome';
// for the presenters
export { PLACEHOLDERS } from './domain/email-texts';
export type { EmailTextsView } from './usecases/get-email-texts';
// for the composition root and the presenters (the routes are in routes.ts)
export { emailsRepo } from './db/emails';
export type { EmailDoc } from './db/emails';
export { createMailSender } from './sender';
