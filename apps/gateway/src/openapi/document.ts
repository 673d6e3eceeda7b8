import { ERROR_CODES } from '@inv/contracts';
import { components } from './builder';
import { bankStatementPaths } from './paths/bank-statements';
import { catalogPaths } from './paths/catalog';
import { customerPaths } from './paths/customers';
import { inboundPaths } from './paths/inbound';
import { invoicePaths } from './paths/invoices';
import { otherPaths } from './paths/other';
import { paymentPaths } from './paths/payments';
import { accountPaths } from './paths/accounts';
import { authPaths } from './paths/auth';
import { recurringPaths } from './paths/recurring';
import { reminderPaths } from './paths/reminders';
import { requestLogPaths } from './paths/request-log';
import { WEBHOOKS_DESCRIPTION, webhookEvents, webhookExamples, webhookPaths } from './paths/webhooks';
import { polishDocument } from './polish';

const errorReference = Object.entries(ERROR_CODES)
  .map(([code, [status, meaning]]) => `| \`${code}\` | ${status} | ${meaning} |`)
  .join('\n');

const description = `EU e-invoicing: customers, invoices (ZUGFeRD/Factur-X, XRechnung, PEPPOL, FatturaPA, Facturae), VAT ID checks against VIES, accounting export.

**Authentication.** Every request carries \`X-API-Key\`. Keys are created in the web app (\`/app/\`, account settings → API keys) or under Company → API keys; the secret is shown once. API access requires the Pro plan: a downgrade deactivates every key of the company, an upgrade reactivates none.

**Roles.** A key carries the permissions of the role chosen at its creation (default admin); a route the role may not use answers 403 \`FORBIDDEN\` with \`missing_permission\`.

| permission | routes | owner | admin | member | viewer |
|---|---|---|---|---|---|
| \`read\` | every GET (also \`/members/\`, \`/request-log/\`) except keys and the audit log | yes | yes | yes | yes |
| \`invoices:write\` | writes of invoices, positions, customers, products | yes | yes | yes | no |
| \`export\` | \`/exports\`, \`/acctexp\`, \`/datev\`, \`/downloads\` | yes | yes | yes | no |
| \`company:write\` | writes of \`/company\`, \`/numbering\`, \`/template\`, payment terms | yes | yes | no | no |
| \`keys:manage\` | \`/company/api-keys\` | yes | yes | no | no |
| \`members:manage\` | writes of \`/members/\`, \`/audit-log/\` | yes | yes | no | no |
| \`webhooks:manage\` | \`/webhook-endpoints\` (reads too) | yes | yes | no | no |

Only an owner may make someone owner, change or remove an owner, or create an owner key; a company always keeps one owner (409 \`LAST_OWNER\`).

**Conventions.** \`null\` in a request body means "not given"; an unknown field or query parameter is refused (400 \`UNKNOWN_FIELD\` naming it, with "did you mean …?" when a known one is close; free objects such as an invoice's \`meta\` stay open). A language is \`de\`/\`en\` or \`German\`/\`English\` in any case, wherever one is taken; customers answer \`German\`/\`English\`, everything else \`de\`/\`en\`. Dates are \`YYYY-MM-DD\`, VAT rates fractions (\`0.19\`), units UN/ECE Recommendation 20 codes (\`HUR\`, \`C62\`, \`DAY\`, \`MON\`, \`LS\`). The partial updates of company data (\`PUT /company/\`, \`/company/payment-terms/{id}\`, \`/products/{id}\`) follow JSON Merge Patch instead: \`null\` removes a value the schema marks nullable. Amounts are JSON numbers, exact to the cent: amounts up to 999,999,999.99, quantities up to 1,000,000,000 with 4 decimals, unit prices up to 999,999,999.9999 with 4 decimals, at most 1,000 positions per invoice. Lists take \`page\` and \`limit\` (default 25, at most 100) and answer \`X-Total-Count\` and an RFC 8288 \`Link\` header.

**Asynchronous work** (finalization, exports) is a job: poll it every 2 s with backoff.

**Idempotency.** POST requests accept an \`Idempotency-Key\` header: a retry with the same key and body gets the first answer again (\`Idempotent-Replayed: true\`) without running twice; the same key with another body answers 422. This holds also when the first answer was lost (a 504 because the service stopped right after its change): the service records what the request changed under the key in the same transaction, so the retry answers the first result and nothing is created twice. Keys are kept 7 days; a request that changed nothing (a 4xx) keeps none. Secrets shown once (a new API key, a webhook signing secret) are masked in a replay.

**Rate limits.** Per company (default 50 requests a second): beyond it 429 with \`Retry-After\` and \`RateLimit-*\` headers. Failed authentications are limited per client address.

**Errors** are RFC 9457 problem documents (\`application/problem+json\`) with \`message\`, \`error_code\` and \`code\` (the same value); 400 and 422 list \`errors: [{path, in, message, suggestion}]\`: \`message\` says what is expected, \`suggestion\` (where the mistake is a common one) the value most likely meant; each \`type\` links to a page saying what to do; a 500 carries an \`error_id\`.

| error_code | status | meaning |
|---|---|---|
${errorReference}`;

const tags = [
  { name: 'Customers', description: 'Customers (B2B and B2C), their addresses and VAT ID checks, account statements.' },
  {
    name: 'Invoices',
    description: 'Draft invoices and positions, validation, finalization jobs, status, credit notes, PDF and XML links.',
  },
  {
    name: 'Payments',
    description:
      'Payments received on invoices (and refunds on credit notes): recorded by hand, by setting an invoice PAID or from a bank statement, with Skonto; reversals.',
  },
  { name: 'Templates', description: 'PDF layouts.' },
  { name: 'Company', description: 'The company profile (the seller), bank accounts, payment terms and API keys.' },
  { name: 'Products', description: 'The product catalog positions are filled from (product_id).' },
  { name: 'Numbering', description: 'Invoice and credit-note number sequences: patterns with date placeholders, gapless and unique.' },
  {
    name: 'Sign-in',
    description:
      'Members sign in with their password and get a session and short-lived access tokens (`Authorization: Bearer mt_…`) that work like an API key with the member’s role, on every plan. The dashboard signs in this way.',
  },
  { name: 'Members', description: 'Members and their roles (owner, admin, member, viewer), invitations by e-mail.' },
  { name: 'Audit log', description: 'Who changed what and when: append-only, each entry carrying the hash of the one before.' },
  {
    name: 'Request log',
    description:
      "The company's last API requests as the API answered them, for finding a failed call by its request id or Idempotency-Key.",
  },
  { name: 'Quota', description: 'The plan and the monthly finalization quota.' },
  {
    name: 'Test mode',
    description:
      'Keys created with `"mode": "test"` (`ak_test_…`) work on every route like live keys, on test data of their own: isolated from live data in both ' +
      'directions, no quota, own invoice numbers, PDFs marked TEST, e-invoices with a note, e-mails recorded instead of sent, VAT checks against the ' +
      'VIES test numbers, webhooks only to endpoints created with a test key. `DELETE /test-data` removes the test data.',
  },
  {
    name: 'Recurring invoices',
    description:
      'Invoice templates issued on a schedule (monthly, quarterly, yearly): each run creates, finalizes and e-mails an invoice through this API.',
  },
  {
    name: 'Reminders',
    description:
      'Reminders (Mahnwesen: payment reminder, overdue notice, final reminder) with fees and default interest (§ 288 BGB), rendered as PDF and e-mailed; a daily run proposes or sends due ones.',
  },
  {
    name: 'Bank statements',
    description:
      'camt.053 bank statements: credits matched to open invoices by invoice number, RF reference, amount and payer, confirmed into payments.',
  },
  { name: 'Webhooks', description: `Signed webhooks: endpoints, their secrets and the delivery log. ${WEBHOOKS_DESCRIPTION}` },
  { name: 'Accounting export', description: 'DATEV EXTF export configuration, account mappings and export jobs.' },
  { name: 'Downloads', description: 'Export files.' },
  {
    name: 'Inbound',
    description:
      'Received e-invoices (XRechnung, Peppol BIS 3, EN 16931, ZUGFeRD/Factur-X): validated with the official rules, read into JSON, originals kept.',
  },
];

/** The OpenAPI 3.1 document, generated from the zod contracts the services validate with. */
export function buildOpenApiDocument() {
  for (const k of Object.keys(components)) delete components[k];
  const paths = {
    ...customerPaths(),
    ...invoicePaths(),
    ...paymentPaths(),
    ...otherPaths(),
    ...accountPaths(),
    ...authPaths(),
    ...requestLogPaths(),
    ...catalogPaths(),
    ...webhookPaths(),
    ...inboundPaths(),
    ...recurringPaths(),
    ...reminderPaths(),
    ...bankStatementPaths(),
  };
  const doc = polishDocument({
    openapi: '3.1.0',
    info: { title: 'Invoicing API', version: '1.6.0', description },
    servers: [{ url: '/api/v1' }],
    security: [{ ApiKey: [] }, { MemberAccessToken: [] }],
    tags,
    paths,
    // OpenAPI 3.1: the requests we send to the integrator's endpoints (one per event type)
    webhooks: webhookEvents(),
    components: {
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        MemberAccessToken: { type: 'http', scheme: 'bearer', description: 'a member’s access token (`mt_…`) from POST /auth/sessions' },
      },
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
    },
  });
  // every webhook's payload as a real delivery carries it, built from the examples of the resources it holds
  const examples = webhookExamples(doc.components.schemas as Record<string, { example?: unknown }>);
  const hooks = doc.webhooks as Record<string, { post: { requestBody: { content: Record<string, { example?: unknown }> } } }>;
  for (const [type, example] of Object.entries(examples)) hooks[type]!.post.requestBody.content['application/json']!.example = example;
  return doc;
}
