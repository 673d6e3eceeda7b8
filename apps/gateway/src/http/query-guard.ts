import type { RequestHandler } from 'express';
import { z } from 'zod';
import { refuseUnknownQueryParameters, suggestField, toProblem } from '@inv/service-kit';

interface OpenApiLike {
  paths: Record<string, Record<string, unknown>>;
}
interface Parameter {
  name?: string;
  in?: string;
}

interface Route {
  pattern: RegExp;
  /** literal segments: the more, the more specific (`/invoice/tax-treatments` over `/invoice/{id}`) */
  literals: number;
  /** query parameters by method (upper case) */
  query: Map<string, string[]>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const queryNames = (params: unknown) =>
  Array.isArray(params) ? (params as Parameter[]).filter((p) => p?.in === 'query' && p.name).map((p) => p.name!) : [];

/** The routes of the OpenAPI document with the query parameters each operation takes. */
export function queryTable(doc: OpenApiLike): Route[] {
  const routes: Route[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const segments = path.replace(/\/$/, '').split('/').filter(Boolean);
    const pattern = new RegExp(
      `^/${segments.map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}/?$`,
    );
    const shared = queryNames(item.parameters);
    const query = new Map<string, string[]>();
    for (const method of METHODS) {
      const op = item[method] as { parameters?: unknown } | undefined;
      if (op) query.set(method.toUpperCase(), [...shared, ...queryNames(op.parameters)]);
    }
    routes.push({ pattern, literals: segments.filter((s) => !s.startsWith('{')).length, query });
  }
  return routes.sort((a, b) => b.literals - a.literals);
}

/**
 * A query parameter the operation does not take answers 400 UNKNOWN_FIELD (`in: query`, "did you mean …?") instead of
 * being ignored: `GET /customer/7/statement/pdf?lang=de` would otherwise render in the customer's language without a
 * word. The operations and their parameters are the OpenAPI document's, so the reference and the check agree; a path
 * or method the document does not describe is left to its service.
 */
export function refuseUnknownQuery(doc: OpenApiLike): RequestHandler {
  const routes = queryTable(doc);
  return (req, res, next) => {
    const at = req.url.indexOf('?');
    if (at < 0 || at === req.url.length - 1) return next();
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const path = req.path;
    const route = routes.find((r) => r.pattern.test(path) && r.query.has(method));
    if (!route) return next();
    const known = route.query.get(method)!;
    const given = [...new Set([...new URLSearchParams(req.url.slice(at + 1)).keys()])];
    const unknown = given.filter((name) => name !== '' && !known.includes(name));
    if (!unknown.length) return next();
    const shape = Object.fromEntries(known.map((k) => [k, z.string()]));
    try {
      refuseUnknownQueryParameters(
        unknown.map((name) => ({
          path: name,
          known,
          get suggestion() {
            return suggestField(name, shape);
          },
        })),
      );
    } catch (err) {
      const { problem } = toProblem(err);
      res.status(problem.status).type('application/problem+json').send(problem);
      return;
    }
    next();
  };
}
