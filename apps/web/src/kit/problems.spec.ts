import { KNOWN_PROBLEM_CODES, problemMessage } from './problems';

const problem = (status: number, code: string, detail: string, errors?: unknown[]) => ({
  type: `https://docs.example/problems/${code}`,
  title: code,
  status,
  detail,
  message: detail,
  code,
  error_code: code,
  ...(errors ? { errors } : {}),
});

describe('the web app says what a refusal means in the page language', () => {
  it('has a German and an English sentence for every code the forms can meet', () => {
    for (const code of KNOWN_PROBLEM_CODES) {
      const de = problemMessage('de', 409, problem(409, code, 'english detail'));
      const en = problemMessage('en', 409, problem(409, code, 'english detail'));
      expect(de).not.toContain('english detail');
      expect(en).not.toContain('english detail');
      expect(de).not.toBe(en);
    }
    for (const code of [
      'API_KEY_LIMIT_REACHED',
      'MEMBER_EXISTS',
      'LAST_OWNER',
      'WEBHOOK_URL_NOT_ALLOWED',
      'WEBHOOK_ENDPOINT_LIMIT_REACHED',
    ])
      expect(KNOWN_PROBLEM_CODES).toContain(code);
  });

  it('answers the codes of the key, member and webhook actions in German', () => {
    expect(problemMessage('de', 409, problem(409, 'MEMBER_EXISTS', 'a@b.example is already a member of the company or invited'))).toBe(
      'Diese Adresse ist bereits Mitglied oder eingeladen. Wählen Sie eine andere Adresse oder ändern Sie die Rolle des Mitglieds.',
    );
    expect(problemMessage('de', 409, problem(409, 'LAST_OWNER', 'a company always keeps at least one owner'))).toContain(
      'mindestens einen Inhaber',
    );
    expect(problemMessage('de', 402, problem(402, 'API_KEY_LIMIT_REACHED', 'at most 10 active API keys'))).toContain(
      'Widerrufen Sie zuerst einen',
    );
    const url = problem(400, 'WEBHOOK_URL_NOT_ALLOWED', 'url not allowed: resolves to a private address', [
      { path: 'url', in: 'body', message: 'resolves to a private address' },
    ]);
    expect(problemMessage('de', 400, url)).toMatch(/^An diese URL dürfen keine Webhooks gehen: .*https:\/\//);
    expect(problemMessage('en', 400, url)).toMatch(/^This URL may not receive webhooks: use an https:\/\//);
    expect(problemMessage('de', 429, problem(429, 'RATE_LIMITED', 'too many requests'))).toContain('Zu viele Anfragen');
  });

  it('a refused action (403) answers in the page language, whatever its code', () => {
    const refused = problem(403, 'FORBIDDEN', 'the role viewer lacks the permission keys:manage');
    expect(problemMessage('de', 403, refused)).toBe(
      'Ihre Rolle darf das nicht. Fragen Sie einen Inhaber oder Administrator Ihres Unternehmens.',
    );
    expect(problemMessage('en', 403, refused)).toBe('Your role may not do this. Ask an owner or an admin of your company.');
    expect(problemMessage('de', 403, { detail: 'only an owner may do that', code: 'SOMETHING_NEW' })).toContain(
      'Ihre Rolle darf das nicht',
    );
  });

  it('names the form field in the page language with the format it expects, and the suggestion', () => {
    const name = problem(400, 'VALIDATION_ERROR', 'invalid request: name: must be at least 1 character', [
      { path: 'name', in: 'body', message: 'must be at least 1 character' },
    ]);
    expect(problemMessage('de', 400, name)).toBe(
      'Bitte prüfen Sie das Feld „Name“. Erwartet: 1 bis 100 Zeichen, die sagen, wofür der Schlüssel ist.',
    );
    expect(problemMessage('en', 400, name)).toBe(
      'Please check the field “Name”. Expected: 1 to 100 characters saying what the key is for.',
    );
    const email = problem(400, 'VALIDATION_ERROR', 'invalid request: email: must be an e-mail address', [
      { path: 'email', message: 'must be an e-mail address' },
    ]);
    expect(problemMessage('de', 400, email)).toBe(
      'Bitte prüfen Sie das Feld „E-Mail-Adresse“. Erwartet: eine Adresse wie name@example.com.',
    );
    const events = problem(400, 'VALIDATION_ERROR', 'invalid request: event_types.0: unknown event type', [
      { path: 'event_types.0', message: 'must be one of invoice.created, invoice.finalized, …', suggestion: 'invoice.finalized' },
    ]);
    expect(problemMessage('de', 400, events)).toBe(
      'Bitte prüfen Sie das Feld „Ereignisse“. Erwartet: eines oder mehrere der aufgeführten Ereignisse. Meinten Sie „invoice.finalized“?',
    );
    expect(problemMessage('en', 400, events)).toBe(
      'Please check the field “Events”. Expected: one or more of the listed events. Did you mean “invoice.finalized”?',
    );
    // two errors of one field are said once; fields the form does not have are left to the general sentence
    const twice = problem(400, 'VALIDATION_ERROR', 'x', [
      { path: 'role', message: 'a' },
      { path: 'role', message: 'b' },
      { path: 'constructor', message: 'c' },
    ]);
    expect(problemMessage('en', 400, twice)).toBe('Please check the field “Role”. Expected: one of Owner, Admin, Member, Viewer.');
  });

  it('falls back to a general sentence in the page language plus the service detail for unknown codes', () => {
    expect(problemMessage('de', 422, problem(422, 'BRAND_NEW_CODE', 'the thing cannot be done now'))).toBe(
      'Die Aktion wurde abgelehnt. Der Dienst meldet: the thing cannot be done now',
    );
    expect(problemMessage('en', 422, { error_code: 'BRAND_NEW_CODE', message: 'old clients read message' })).toBe(
      'The action was refused. The service says: old clients read message',
    );
    expect(problemMessage('de', 400, problem(400, 'VALIDATION_ERROR', 'invalid request: __proto__: unknown'))).toBe(
      'Bitte prüfen Sie Ihre Eingaben. Der Dienst meldet: invalid request: __proto__: unknown',
    );
    expect(problemMessage('de', 502, {})).toBe('Diese Funktion ist vorübergehend nicht erreichbar. Bitte versuchen Sie es gleich erneut.');
    // hostile answers: odd types, an enormous detail
    expect(problemMessage('en', 400, { code: 42 as unknown as string, errors: 'nope', detail: 'x'.repeat(5000) }).length).toBeLessThan(400);
    expect(problemMessage('en', 400, { errors: [null, 1, { path: { a: 1 } }] })).toBe('The action was refused.');
  });
});
