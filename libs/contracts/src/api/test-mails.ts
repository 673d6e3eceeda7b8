import { z } from 'zod';
import { Pagination } from './common';

const Timestamp = z.string().meta({ description: 'ISO 8601 date-time (UTC)', example: '2026-11-21T10:15:00.000Z' });

/** GET /test-mails: a page of the test mode's recorded e-mails (docs/test-mode.md). */
export const TestMailListQuery = Pagination.strict();
export type TestMailListQuery = z.output<typeof TestMailListQuery>;

/** An e-mail sent in test mode: recorded with its content instead of being handed to the mail server. */
export const TestMail = z
  .object({
    id: z.string().meta({ description: 'the e-mail id, as `email_id` of POST /invoice/{id}/send_email answered it' }),
    subject_ref: z.string().meta({ description: 'what the mail is about: `invoice:<id>`, `reminder:<id>`, ...' }),
    from: z.string(),
    reply_to: z.string().nullable(),
    to: z.array(z.string()),
    cc: z.array(z.string()),
    bcc: z.array(z.string()),
    subject: z.string(),
    text: z.string().meta({ description: 'the message body as it would have been sent' }),
    attachments: z.array(z.object({ filename: z.string(), content_type: z.string() })),
    captured_at: Timestamp,
  })
  .meta({ id: 'TestMail' });

export const TestMailList = z
  .object({ test_mails: z.array(TestMail), total: z.number().int(), page: z.number().int(), limit: z.number().int() })
  .meta({ id: 'TestMailList' });
