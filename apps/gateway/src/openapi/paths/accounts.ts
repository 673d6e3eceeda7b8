import { z } from 'zod';
import {
  AuditLogPage,
  AuditLogQuery,
  AuditVerification,
  Member,
  MemberInvite,
  MemberUpdate,
  MessageBody,
  TestDataReset,
  TestMail,
  TestMailList,
  TestMailListQuery,
} from '@inv/contracts';
import { body, bodyErrors, commonErrors, conflict, json, notFound, problem, queryParams, strId, type Operation } from '../builder';

/** Members and roles, and the audit log (account-service). */
export function accountPaths(): Record<string, Record<string, unknown>> {
  const op = (tags: string[], o: Omit<Operation, 'tags'>): Operation => ({ tags, ...o });
  const m = ['Members'];
  const a = ['Audit log'];
  const ownersOnly = { 403: problem('the role lacks members:manage, or only an owner may do this with owners (FORBIDDEN)') };
  return {
    '/members/': {
      get: op(m, {
        operationId: 'listMembers',
        summary: 'List members and open invitations',
        responses: { 200: json(z.object({ members: z.array(Member) })), ...commonErrors() },
      }),
      post: op(m, {
        operationId: 'inviteMember',
        summary: 'Invite a member by e-mail',
        description: 'The invitation is a single-use link, valid 7 days.',
        requestBody: body(MemberInvite, { email: 'anna@example.com', role: 'member' }),
        responses: {
          201: json(Member.extend({ message: z.string() }), 'invited'),
          ...conflict('already a member or invited (MEMBER_EXISTS)'),
          ...bodyErrors(),
          ...commonErrors(),
          ...ownersOnly,
        },
      }),
    },
    '/members/{member_id}': {
      parameters: [strId('member_id', 'member id')],
      put: op(m, {
        operationId: 'changeMemberRole',
        summary: "Change a member's role",
        requestBody: body(MemberUpdate, { role: 'viewer' }),
        responses: {
          200: json(Member.extend({ message: z.string() })),
          ...notFound(),
          ...conflict('the last owner keeps the role (LAST_OWNER)'),
          ...bodyErrors(),
          ...commonErrors(),
          ...ownersOnly,
        },
      }),
      delete: op(m, {
        operationId: 'removeMember',
        summary: 'Remove a member',
        description: 'Also withdraws an open invitation.',
        responses: {
          200: json(MessageBody),
          ...notFound(),
          ...conflict('the last owner cannot be removed (LAST_OWNER)'),
          ...commonErrors(),
          ...ownersOnly,
        },
      }),
    },
    '/audit-log/': {
      get: op(a, {
        operationId: 'listAuditLog',
        summary: 'List audit log entries',
        description:
          'Changes of company data, customers, invoices, keys, members, mappings and exports, newest first, with cursor pagination.',
        parameters: queryParams(AuditLogQuery),
        responses: { 200: json(AuditLogPage), ...commonErrors() },
      }),
    },
    '/audit-log/verify': {
      get: op(a, {
        operationId: 'verifyAuditLog',
        summary: 'Verify the audit log hash chain',
        description: 'Recomputes the hash chain and names the first entry that does not match.',
        responses: { 200: json(AuditVerification), ...commonErrors() },
      }),
    },
    '/test-data': {
      delete: op(['Test mode'], {
        operationId: 'resetTestData',
        summary: 'Delete all test data',
        description:
          'Test mode: a test key (`ak_test_…`, created with `POST /company/api-keys` and `"mode": "test"`) works on every route exactly like a live key, ' +
          "but on the company's test data only: its own customers, invoices and invoice numbers, products, payments, bank statements, received documents, " +
          "recurring invoices, exports, webhook endpoints and deliveries, audit log. A test key and a live key never see each other's objects (404). " +
          'Test finalizations never count against the quota, their PDFs carry a TEST mark and their e-invoices a note saying so, VAT checks answer from ' +
          "the VIES test numbers (e.g. DE999991005 valid, DE999992008 invalid), and the company's profile, bank accounts, payment terms, logo, members " +
          'and keys are read but never changed (403 TEST_MODE_READ_ONLY). ' +
          'This call, with a test key of an owner or admin, removes the test data and leaves live data untouched; a repeat removes nothing. ' +
          'With a live key it answers 403.',
        responses: {
          200: json(TestDataReset),
          ...commonErrors(),
          403: problem('not a test key, or the role lacks members:manage (FORBIDDEN)'),
        },
      }),
    },
    '/test-mails/': {
      get: op(['Test mode'], {
        operationId: 'listTestMails',
        summary: 'List the e-mails test mode recorded',
        description:
          'Test mode never hands an e-mail to the mail server: invoice e-mails, reminders and every other message of the test data are recorded ' +
          'here with their content (sender, recipients, subject, text, attachment names), newest first, and reported sent as usual ' +
          '(`mail.sent` webhooks, the invoice becomes SENT). Needs a test key; a live key answers 403, its e-mails go to the mail server.',
        parameters: queryParams(TestMailListQuery),
        responses: {
          200: json(TestMailList),
          ...commonErrors(),
          403: problem('a live key: recorded e-mails exist only in test mode (FORBIDDEN)'),
        },
      }),
    },
    '/test-mails/{email_id}': {
      get: op(['Test mode'], {
        operationId: 'getTestMail',
        summary: 'Get one recorded e-mail',
        description: 'One e-mail test mode recorded, by the `email_id` that `POST /invoice/{id}/send_email` answered.',
        parameters: [strId('email_id', 'e-mail id (uuid)')],
        responses: {
          200: json(TestMail),
          ...commonErrors(),
          403: problem('a live key: recorded e-mails exist only in test mode (FORBIDDEN)'),
          ...notFound(),
        },
      }),
    },
  };
}
