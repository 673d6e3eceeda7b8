import { ERROR_CODES, type ErrorCode } from '@inv/contracts';
import { PROBLEM_ADVICE } from './problem-advice';

/**
 * One page per problem type: the `type` of every problem document (RFC 9457) is
 * `/api/v1/problems/<code in lower case with hyphens>`, a reference relative to the gateway that resolves here.
 * Plain server-rendered HTML (no script), so it works offline and under the API's strict CSP.
 */
export const PROBLEMS_PATH = '/api/v1/problems/';
export const problemSlug = (code: string) => code.toLowerCase().replace(/_/g, '-');

const bySlug = new Map<string, ErrorCode>((Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => [problemSlug(code), code]));

/** The code a slug (`validation-error`) or a code (`VALIDATION_ERROR`) names, if any. */
export const problemCodeOf = (slugOrCode: string): ErrorCode | undefined => bySlug.get(problemSlug(slugOrCode.replace(/\/+$/, '')));

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
/** The meanings use `code` spans in backticks. */
const inline = (s: string) => escapeHtml(s).replace(/`([^`]+)`/g, '<code>$1</code>');

/** What to do about `code`: its own advice, else (a code added without one) the advice of its status. */
export const adviceOf = (code: ErrorCode): string => {
  const own = PROBLEM_ADVICE[code];
  return own ? inline(own) : (ADVICE[ERROR_CODES[code][0]] ?? 'See the API reference.');
};

/** What a client should do, by status (for a code without advice of its own). */
const ADVICE: Record<number, string> = {
  400: 'Fix the request: <code>errors</code> names each invalid field (<code>path</code>, <code>in</code>, <code>message</code>). Sending it again unchanged gives the same answer.',
  401: 'Send a valid key in <code>X-API-Key</code>; keys are created in the web app or under Company → API keys.',
  402: 'Wait until the quota resets (<code>reset_date</code>) or upgrade the plan.',
  403: 'Use a key whose role has the permission (<code>missing_permission</code> names it) or that the plan allows.',
  404: 'Check the id and the path; ids of another company answer 404 too.',
  405: 'Use one of the methods the <code>Allow</code> header lists.',
  408: 'Send the body promptly after the request head, then retry.',
  409: 'Fetch the current state of the resource, then decide whether to retry.',
  413: 'Send less: a smaller body or file.',
  415: 'Send the content type the operation takes (see the API reference).',
  422: 'Correct the data the problem names (<code>errors</code>), then retry.',
  429: 'Wait the seconds <code>Retry-After</code> says, then retry; spread requests out.',
  500: 'Retry later; if it persists, report it quoting <code>error_id</code>.',
  503: 'Retry after <code>Retry-After</code> seconds, with backoff.',
  504: 'Retry later, with backoff; the operation may have completed, so check before repeating a write.',
};

const STYLE = `body{font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
h1{font-size:1.6rem;margin:.2rem 0 1rem;overflow-wrap:anywhere}code{font:.9em ui-monospace,SFMono-Regular,Menlo,monospace;background:#f2f4f7;padding:.1em .3em;border-radius:4px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.45rem .5rem;border-bottom:1px solid #dde1e6;vertical-align:top}
td:first-child code{white-space:nowrap}.status{color:#57606a}a{color:#0b5cad}nav{font-size:.9rem;margin-bottom:1rem}`;

const layout = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)} · Invoicing API</title>
  <link rel="icon" href="data:,">
  <style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;

export function renderProblemPage(code: ErrorCode): string {
  const [status, meaning] = ERROR_CODES[code];
  return layout(
    code,
    `<nav><a href="${PROBLEMS_PATH}">All problem types</a> · <a href="/api/v1/docs">API reference</a></nav>
<p class="status">HTTP ${status} · problem type <code>${PROBLEMS_PATH}${problemSlug(code)}</code></p>
<h1><code>${code}</code></h1>
<p>${inline(meaning)}</p>
<h2>What to do</h2>
<p>${adviceOf(code)}</p>
<h2>The answer</h2>
<p>An RFC 9457 problem document (<code>application/problem+json</code>) with status ${status}, <code>type</code> this page,
<code>error_code</code> and <code>code</code> <code>${code}</code>, and <code>detail</code> (also as <code>message</code>) saying what happened.</p>`,
  );
}

export function renderProblemIndex(): string {
  const rows = (Object.entries(ERROR_CODES) as [ErrorCode, readonly [number, string]][])
    .map(
      ([code, [status, meaning]]) =>
        `<tr><td><a href="${PROBLEMS_PATH}${problemSlug(code)}"><code>${code}</code></a></td><td>${status}</td><td>${inline(meaning)}</td></tr>`,
    )
    .join('\n');
  return layout(
    'Problem types',
    `<nav><a href="/api/v1/docs">API reference</a></nav>
<h1>Problem types</h1>
<p>Every error answer is an RFC 9457 problem document whose <code>type</code> links to its page here.</p>
<table><thead><tr><th>error_code</th><th>status</th><th>meaning</th></tr></thead>
<tbody>
${rows}
</tbody></table>`,
  );
}
