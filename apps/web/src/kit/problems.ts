/** A problem document as a service answered it (read leniently). */
type Json = Record<string, unknown>;
import { texts, type Lang } from './i18n';

/**
 * What a refused action says in the page's language. The services answer problem+json in English (`code` or
 * `error_code`, `detail`/`message`, `errors[]` with `path`, `message` and maybe `suggestion`); the pages show a
 * German or English sentence per code the web app's forms can meet, name the form field of a field error with
 * the format it expects, and fall back to a general sentence plus the service's own detail for anything else.
 */
type Texts = {
  codes: Record<string, string>;
  /** Form fields by the API's path (first segment), with the format each expects. */
  fields: Record<string, { label: string; expected: string }>;
  field: string;
  suggestion: string;
  generic: string;
  invalid: string;
  detail: string;
};

const en: Texts = {
  codes: {
    PLAN_REQUIRED: 'API keys need the Pro plan. Your company is on the Free plan.',
    TEST_MODE_READ_ONLY: 'A test key cannot change the company; use a live key.',
    API_KEY_LIMIT_REACHED: 'Your company already has 10 active API keys, the most it may have. Revoke one first.',
    MEMBER_EXISTS: 'This address is already a member or invited. Pick another address or change the member’s role.',
    LAST_OWNER: 'A company always keeps at least one owner. Make another member owner first.',
    WEBHOOK_ENDPOINT_LIMIT_REACHED: 'Your company already has 16 webhook endpoints, the most it may have. Delete one first.',
    WEBHOOK_URL_NOT_ALLOWED:
      'This URL may not receive webhooks: use an https:// address on the public internet (no localhost, no private network).',
    WEBHOOK_ENDPOINT_DISABLED: 'The endpoint is disabled. Enable it first, then try again.',
    DELIVERY_PENDING: 'An attempt of this delivery is in flight. Its outcome appears in the log shortly.',
    NOT_FOUND: 'This no longer exists. Reload the page.',
    CONCURRENT_MODIFICATION: 'Someone changed this at the same time. Reload the page and try again.',
    RATE_LIMITED: 'Too many requests at once. Please wait a moment and try again.',
    SERVICE_UNAVAILABLE: 'This part of the settings is temporarily unavailable. Please try again in a moment.',
    PAYLOAD_TOO_LARGE: 'The form is too large. Shorten the entries and try again.',
    UNKNOWN_FIELD: 'The form sent a field the service does not know. Reload the page and try again.',
    MALFORMED_REQUEST: 'The form could not be read. Reload the page and try again.',
    UNAUTHENTICATED: 'Your session has ended. Please sign in again.',
  },
  fields: {
    name: { label: 'Name', expected: '1 to 100 characters saying what the key is for' },
    role: { label: 'Role', expected: 'one of Owner, Admin, Member, Viewer' },
    email: { label: 'E-mail address', expected: 'an address like name@example.com' },
    url: { label: 'URL', expected: 'an https:// address on the public internet, at most 2048 characters' },
    description: { label: 'Description', expected: 'at most 500 characters' },
    event_types: { label: 'Events', expected: 'one or more of the listed events' },
    password: { label: 'Password', expected: 'at least 12 characters' },
  },
  field: 'Please check the field “{label}”. Expected: {expected}.',
  suggestion: 'Did you mean “{suggestion}”?',
  generic: 'The action was refused.',
  invalid: 'Please check your entries.',
  detail: 'The service says: {detail}',
};

const de: Texts = {
  codes: {
    PLAN_REQUIRED: 'API-Schlüssel erfordern den Pro-Tarif. Ihr Unternehmen ist im Free-Tarif.',
    TEST_MODE_READ_ONLY: 'Ein Testschlüssel kann das Unternehmen nicht ändern; verwenden Sie einen Live-Schlüssel.',
    API_KEY_LIMIT_REACHED: 'Ihr Unternehmen hat bereits 10 aktive API-Schlüssel, das Maximum. Widerrufen Sie zuerst einen.',
    MEMBER_EXISTS:
      'Diese Adresse ist bereits Mitglied oder eingeladen. Wählen Sie eine andere Adresse oder ändern Sie die Rolle des Mitglieds.',
    LAST_OWNER: 'Ein Unternehmen behält immer mindestens einen Inhaber. Machen Sie zuerst ein anderes Mitglied zum Inhaber.',
    WEBHOOK_ENDPOINT_LIMIT_REACHED: 'Ihr Unternehmen hat bereits 16 Webhook-Endpunkte, das Maximum. Löschen Sie zuerst einen.',
    WEBHOOK_URL_NOT_ALLOWED:
      'An diese URL dürfen keine Webhooks gehen: Verwenden Sie eine https://-Adresse im öffentlichen Internet (kein localhost, kein privates Netz).',
    WEBHOOK_ENDPOINT_DISABLED: 'Der Endpunkt ist deaktiviert. Aktivieren Sie ihn zuerst und versuchen Sie es dann erneut.',
    DELIVERY_PENDING: 'Ein Zustellversuch läuft gerade. Sein Ergebnis steht gleich im Protokoll.',
    NOT_FOUND: 'Das gibt es nicht mehr. Laden Sie die Seite neu.',
    CONCURRENT_MODIFICATION: 'Jemand hat das gleichzeitig geändert. Laden Sie die Seite neu und versuchen Sie es erneut.',
    RATE_LIMITED: 'Zu viele Anfragen auf einmal. Bitte warten Sie einen Moment und versuchen Sie es erneut.',
    SERVICE_UNAVAILABLE: 'Dieser Teil der Einstellungen ist vorübergehend nicht erreichbar. Bitte versuchen Sie es gleich erneut.',
    PAYLOAD_TOO_LARGE: 'Das Formular ist zu groß. Kürzen Sie die Eingaben und versuchen Sie es erneut.',
    UNKNOWN_FIELD: 'Das Formular enthielt ein Feld, das der Dienst nicht kennt. Laden Sie die Seite neu und versuchen Sie es erneut.',
    MALFORMED_REQUEST: 'Das Formular war nicht lesbar. Laden Sie die Seite neu und versuchen Sie es erneut.',
    UNAUTHENTICATED: 'Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.',
  },
  fields: {
    name: { label: 'Name', expected: '1 bis 100 Zeichen, die sagen, wofür der Schlüssel ist' },
    role: { label: 'Rolle', expected: 'eine von Inhaber, Administrator, Mitglied, Betrachter' },
    email: { label: 'E-Mail-Adresse', expected: 'eine Adresse wie name@example.com' },
    url: { label: 'URL', expected: 'eine https://-Adresse im öffentlichen Internet, höchstens 2048 Zeichen' },
    description: { label: 'Beschreibung', expected: 'höchstens 500 Zeichen' },
    event_types: { label: 'Ereignisse', expected: 'eines oder mehrere der aufgeführten Ereignisse' },
    password: { label: 'Passwort', expected: 'mindestens 12 Zeichen' },
  },
  field: 'Bitte prüfen Sie das Feld „{label}“. Erwartet: {expected}.',
  suggestion: 'Meinten Sie „{suggestion}“?',
  generic: 'Die Aktion wurde abgelehnt.',
  invalid: 'Bitte prüfen Sie Ihre Eingaben.',
  detail: 'Der Dienst meldet: {detail}',
};

const TEXTS: Record<Lang, Texts> = { de, en };
const fill = (s: string, v: Record<string, string>) => s.replace(/\{(\w+)\}/g, (_m, k: string) => v[k] ?? '');
const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);

/** The codes the web app has its own sentence for (the tests check both languages have each). */
export const KNOWN_PROBLEM_CODES = Object.keys(en.codes);

/** The sentence a page shows for a service's refusal (`status` its HTTP status, `body` its problem document). */
export function problemMessage(lang: Lang, status: number, body: Json): string {
  const t = TEXTS[lang];
  const code = str(body.code) ?? str(body.error_code) ?? '';
  const errors = Array.isArray(body.errors) ? (body.errors as unknown[]) : [];
  // field errors of the form's fields: each named as the form names it, with what it expects
  const fieldTexts = errors
    .map((e) => (e && typeof e === 'object' ? (e as Record<string, unknown>) : {}))
    .map((e) => {
      const name = (str(e.path) ?? '').split('.')[0]!;
      const f = Object.hasOwn(t.fields, name) ? t.fields[name] : undefined;
      if (!f) return undefined;
      const suggestion = str(e.suggestion)?.slice(0, 100);
      return fill(t.field, f) + (suggestion ? ` ${fill(t.suggestion, { suggestion })}` : '');
    })
    .filter((x): x is string => x !== undefined);
  const known = Object.hasOwn(t.codes, code) ? t.codes[code] : undefined;
  // a code with its own sentence says it all (WEBHOOK_URL_NOT_ALLOWED names what the url field needs)
  if (known && code !== 'UNKNOWN_FIELD') return known;
  if (fieldTexts.length) return [...new Set(fieldTexts)].join(' ');
  if (known) return known;
  if (code === 'FORBIDDEN' || status === 403) return texts[lang].forbidden;
  const detail = (str(body.detail) ?? str(body.message))?.slice(0, 300);
  const lead = code === 'VALIDATION_ERROR' ? t.invalid : t.generic;
  return detail ? `${lead} ${fill(t.detail, { detail })}` : lead;
}
