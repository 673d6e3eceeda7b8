import {
  InvitationAccept,
  InvitationInfo,
  InvitationLookup,
  MessageBody,
  MemberSession,
  PasswordResetConfirm,
  PasswordResetRequest,
  SessionCreate,
  SessionRefresh,
  SessionRevoke,
} from '@inv/contracts';
import { body, bodyErrors, json, notFound, problem, type Operation } from '../builder';

const SECRET = `ms_${'4f'.repeat(32)}`;
const TOKEN = 'q3v9Xh2LcT0pWbN8yRk4sUe7mAf1JdGzC5oYiV6nB_w';

/** Members' sign-in (account-service): sessions and the short-lived access tokens the dashboard calls the API with. */
export function authPaths(): Record<string, Record<string, unknown>> {
  const op = (o: Omit<Operation, 'tags'>): Operation => ({ tags: ['Sign-in'], security: [], ...o });
  const unauthenticated = { 401: problem('wrong e-mail address or password, or the session has ended (UNAUTHENTICATED)') };
  return {
    '/auth/sessions': {
      post: op({
        operationId: 'createSession',
        summary: 'Sign a member in',
        description:
          'E-mail address and password -> a member session (8 hours; its `session_token` is answered only here) and an access token ' +
          '(5 minutes) that authenticates API requests like an API key, as `Authorization: Bearer mt_…`, with the member’s role. ' +
          'Failed sign-ins count per address: after 10 within 15 minutes the answer is 429 (TOO_MANY_SIGN_IN_ATTEMPTS) before any password is checked.',
        requestBody: body(SessionCreate, { email: 'anna@example.com', password: 'correct horse battery staple' }),
        responses: {
          201: json(MemberSession, 'signed in'),
          ...unauthenticated,
          429: problem('too many failed sign-ins for this address (TOO_MANY_SIGN_IN_ATTEMPTS)'),
          ...bodyErrors(),
        },
      }),
    },
    '/auth/sessions/refresh': {
      post: op({
        operationId: 'refreshSession',
        summary: 'Get a new access token',
        description:
          'A new access token of a session that still holds, with the member’s role as it is now; `mode: "test"` gives one for the company’s test data. ' +
          'A removed member or an ended session answers 401.',
        requestBody: body(SessionRefresh, { session_token: SECRET, mode: 'live' }),
        responses: { 200: json(MemberSession), ...unauthenticated, ...bodyErrors() },
      }),
    },
    '/auth/sessions/revoke': {
      post: op({
        operationId: 'revokeSession',
        summary: 'Sign out',
        description:
          'The session and its access tokens stop working at once, on every gateway. An unknown or ended session gets the same answer.',
        requestBody: body(SessionRevoke, { session_token: SECRET }),
        responses: { 200: json(MessageBody, 'signed out'), ...bodyErrors() },
      }),
    },
    '/auth/invitations/lookup': {
      post: op({
        operationId: 'lookUpInvitation',
        summary: 'Whom an invitation invites',
        description: 'The company, address and role of an open invitation (the token of the invitation link); 404 for any other token.',
        requestBody: body(InvitationLookup, { token: TOKEN }),
        responses: { 200: json(InvitationInfo), ...notFound(), ...bodyErrors() },
      }),
    },
    '/auth/invitations/accept': {
      post: op({
        operationId: 'acceptInvitation',
        summary: 'Accept an invitation',
        description: 'Sets the invited member’s password (at least 12 characters) and signs them in: the answer is a member session.',
        requestBody: body(InvitationAccept, { token: TOKEN, password: 'correct horse battery staple' }),
        responses: { 201: json(MemberSession, 'joined and signed in'), ...notFound(), ...bodyErrors() },
      }),
    },
    '/auth/password-resets': {
      post: op({
        operationId: 'requestPasswordReset',
        summary: 'Ask for a password reset link',
        description:
          'Always 202, known address or not, before anything is looked up: for each active member with the address an e-mail goes out ' +
          'with a link to the web app (`…/app/reset-password#token=…`) that works once, for one hour. At most 3 requests per address ' +
          'and hour send e-mails; further ones send nothing (still 202).',
        requestBody: body(PasswordResetRequest, { email: 'anna@example.com' }),
        responses: { 202: json(MessageBody, 'accepted; an e-mail is on its way if the address belongs to a member'), ...bodyErrors() },
      }),
    },
    '/auth/password-resets/confirm': {
      post: op({
        operationId: 'confirmPasswordReset',
        summary: 'Set a new password with a reset link',
        description:
          'The token of the reset link and a new password (at least 12 characters). Every session of the member ends (its access tokens ' +
          'stop working on every gateway), other reset links of the member stop working, and failed sign-ins of the address are forgotten. ' +
          'An unknown, used or expired token is 404 (NOT_FOUND).',
        requestBody: body(PasswordResetConfirm, { token: TOKEN, password: 'correct horse battery staple' }),
        responses: { 200: json(MessageBody, 'the new password is set; sign in with it'), ...notFound(), ...bodyErrors() },
      }),
    },
  };
}
