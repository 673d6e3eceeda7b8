import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { COMPANY_HEADER, IDENTITY_HEADER, type Identity, type IdentitySigner } from '@inv/service-kit';

/** The paths a client calls before it has a credential: members sign in and accept invitations (account-service). */
export const isPublicAuthPath = (path: string) => path === '/auth' || path.startsWith('/auth/');

/**
 * /auth/*: no API key is asked for (a member signs in here to get a credential). The request goes on as the gateway's
 * own (internal) identity, which says no more than "it came through the gateway"; account-service authenticates it
 * by its body (password, session secret, invitation token) and limits failed sign-ins per account. Rate limits and
 * concurrency count per client address. Any key or identity the client sent is dropped.
 */
export function publicAuth(signer: IdentitySigner): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!isPublicAuthPath(req.path)) return next();
    delete req.headers['x-api-key'];
    delete req.headers.authorization;
    delete req.headers[COMPANY_HEADER];
    const signed: Identity = { scope: 'internal', requestId: String(res.locals.requestId ?? '') };
    const token = await signer.sign(signed);
    req.headers[IDENTITY_HEADER] = token;
    res.locals.publicAuth = true;
    res.locals.companyId = `address:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
    res.locals.identityToken = token;
    res.locals.signedIdentity = signed;
    next();
  };
}

/** A step that public /auth requests skip (authentication and the role check). */
export const unlessPublicAuth =
  (step: RequestHandler): RequestHandler =>
  (req, res, next) =>
    res.locals.publicAuth ? next() : step(req, res, next);
