import type { ProblemCode } from './problem-texts.en';

/**
 * Was jeder Fehlercode eines Dienstes für eine Person im Browser bedeutet, auf Deutsch: was passiert ist und was zu tun
 * ist. Dieselben Schlüssel wie problem-texts.en.ts (der Typ verlangt jeden; problem-texts.spec.ts prüft es auch).
 */
export const PROBLEM_TEXTS_DE: Record<ProblemCode, string> = {
  // die Anfrage selbst
  VALIDATION_ERROR: 'Bitte prüfen Sie Ihre Eingaben.',
  INVALID_DATA: 'Bitte prüfen Sie Ihre Eingaben.',
  UNKNOWN_FIELD: 'Das Formular enthielt ein Feld, das der Dienst nicht kennt. Laden Sie die Seite neu und versuchen Sie es erneut.',
  MALFORMED_JSON: 'Das Formular war nicht lesbar. Laden Sie die Seite neu und versuchen Sie es erneut.',
  MALFORMED_PATH: 'Die Adresse dieser Seite ist fehlerhaft. Gehen Sie zurück zur Liste und öffnen Sie den Eintrag erneut.',
  MALFORMED_REQUEST: 'Das Formular war nicht lesbar. Laden Sie die Seite neu und versuchen Sie es erneut.',
  NESTING_TOO_DEEP: 'Das Formular war nicht lesbar. Laden Sie die Seite neu und versuchen Sie es erneut.',
  REQUEST_ABORTED: 'Die Übertragung wurde unterbrochen. Bitte versuchen Sie es erneut.',
  BODY_TIMEOUT: 'Das Hochladen hat zu lange gedauert und wurde abgebrochen. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
  PAYLOAD_TOO_LARGE: 'Das Formular ist zu groß. Kürzen Sie die Eingaben und versuchen Sie es erneut.',
  UNSUPPORTED_MEDIA_TYPE:
    'Das Formular wurde in einem Format gesendet, das der Dienst nicht annimmt. Laden Sie die Seite neu und versuchen Sie es erneut.',
  METHOD_NOT_ALLOWED: 'Diese Aktion ist hier nicht möglich. Laden Sie die Seite neu und versuchen Sie es erneut.',
  INVALID_IDEMPOTENCY_KEY: 'Das Formular konnte nicht sicher gesendet werden. Laden Sie die Seite neu und versuchen Sie es erneut.',
  IDEMPOTENCY_IN_PROGRESS:
    'Dieses Formular wird noch verarbeitet. Warten Sie einen Moment und laden Sie die Seite neu, bevor Sie es erneut senden.',
  IDEMPOTENCY_KEY_REUSED:
    'Das Formular wurde geändert, nachdem es schon einmal gesendet worden war. Laden Sie die Seite neu und geben Sie die Daten erneut ein.',

  // Anmeldung, Rollen, Tarif, Grenzen
  UNAUTHENTICATED: 'Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.',
  TOO_MANY_SIGN_IN_ATTEMPTS:
    'Zu viele fehlgeschlagene Anmeldungen mit dieser E-Mail-Adresse. Bitte warten Sie 15 Minuten oder setzen Sie Ihr Passwort zurück.',
  TOO_MANY_FAILED_AUTHENTICATIONS:
    'Zu viele fehlgeschlagene Anmeldeversuche aus Ihrem Netzwerk. Bitte warten Sie einige Minuten und versuchen Sie es erneut.',
  FORBIDDEN: 'Ihre Rolle darf das nicht. Fragen Sie einen Inhaber oder Administrator Ihres Unternehmens.',
  PLAN_REQUIRED: 'API-Schlüssel erfordern den Pro-Tarif. Ihr Unternehmen ist im Free-Tarif.',
  TEST_MODE_READ_ONLY: 'Ein Testschlüssel kann das Unternehmen nicht ändern; verwenden Sie einen Live-Schlüssel.',
  RATE_LIMITED: 'Zu viele Anfragen auf einmal. Bitte warten Sie einen Moment und versuchen Sie es erneut.',
  TOO_MANY_CONCURRENT_REQUESTS:
    'In Ihrem Unternehmen laufen gerade zu viele Aktionen gleichzeitig. Bitte warten Sie einen Moment und versuchen Sie es erneut.',
  INVOICE_LIMIT_REACHED:
    'Das Kontingent festgeschriebener Rechnungen Ihres Tarifs ist für diesen Monat ausgeschöpft. Entwürfe können Sie weiter anlegen; schreiben Sie sie fest, sobald das Kontingent zurückgesetzt ist oder nach einem Tarifwechsel.',

  // allgemeiner Zustand
  NOT_FOUND: 'Das gibt es nicht mehr. Laden Sie die Seite neu.',
  CONFLICT: 'Das ist im aktuellen Zustand nicht möglich. Laden Sie die Seite neu und prüfen Sie den Eintrag.',
  CONCURRENT_MODIFICATION: 'Jemand hat das gleichzeitig geändert. Laden Sie die Seite neu und versuchen Sie es erneut.',

  // Mitglieder, API-Schlüssel, Webhooks
  MEMBER_EXISTS:
    'Diese Adresse ist bereits Mitglied oder eingeladen. Wählen Sie eine andere Adresse oder ändern Sie die Rolle des Mitglieds.',
  LAST_OWNER: 'Ein Unternehmen behält immer mindestens einen Inhaber. Machen Sie zuerst ein anderes Mitglied zum Inhaber.',
  API_KEY_LIMIT_REACHED: 'Ihr Unternehmen hat bereits 10 aktive API-Schlüssel, das Maximum. Widerrufen Sie zuerst einen.',
  WEBHOOK_ENDPOINT_LIMIT_REACHED: 'Ihr Unternehmen hat bereits 16 Webhook-Endpunkte, das Maximum. Löschen Sie zuerst einen.',
  WEBHOOK_URL_NOT_ALLOWED:
    'An diese URL dürfen keine Webhooks gehen: Verwenden Sie eine https://-Adresse im öffentlichen Internet (kein localhost, kein privates Netz).',
  WEBHOOK_ENDPOINT_DISABLED: 'Der Endpunkt ist deaktiviert. Aktivieren Sie ihn zuerst und versuchen Sie es dann erneut.',
  DELIVERY_PENDING: 'Ein Zustellversuch läuft gerade. Sein Ergebnis steht gleich im Protokoll.',

  // Unternehmensprofil, Logo, Bankkonten, Zahlungsbedingungen
  COMPANY_PROFILE_MISSING:
    'Im Unternehmensprofil fehlen Angaben, die dieses Dokument braucht (etwa Firmenname, Anschrift oder Steuernummer). Ergänzen Sie sie unter Einstellungen → Unternehmen.',
  LOGO_TOO_LARGE: 'Das Logo ist größer als 1 MB. Wählen Sie ein kleineres Bild.',
  UNSUPPORTED_LOGO_TYPE: 'Das Logo muss ein PNG- oder JPEG-Bild sein. Wählen Sie eine andere Datei.',
  LOGO_DIMENSIONS_TOO_LARGE: 'Das Logo hat mehr als 25 Megapixel. Verkleinern Sie das Bild und laden Sie es erneut hoch.',
  LOGO_BUSY: 'Gerade werden viele Logos verarbeitet. Bitte versuchen Sie es in einer Minute erneut.',
  DUPLICATE_BANK_ACCOUNT: 'Diese IBAN ist bereits ein Bankkonto Ihres Unternehmens.',
  BANK_ACCOUNT_LIMIT_REACHED: 'Ihr Unternehmen hat bereits 10 Bankkonten, das Maximum. Löschen Sie zuerst eines.',
  PAYMENT_TERM_IN_USE:
    'Diese Zahlungsbedingung ist noch Kunden zugeordnet oder die Standard-Zahlungsbedingung des Unternehmens. Ordnen Sie zuerst eine andere zu.',
  PAYMENT_TERM_LIMIT_REACHED: 'Ihr Unternehmen hat bereits 50 Zahlungsbedingungen, das Maximum. Löschen Sie zuerst eine.',

  // Kunden, Artikel
  CUSTOMER_NUMBERS_EXHAUSTED: 'Alle Kundennummern von 10000 bis 69999 sind vergeben; es kann kein weiterer Kunde angelegt werden.',
  DUPLICATE_SKU: 'Diese Artikelnummer (SKU) hat bereits ein anderer Artikel. Wählen Sie eine andere.',
  PRODUCT_INACTIVE: 'Dieser Artikel ist inaktiv. Aktivieren Sie ihn, bevor Sie ihn einer Rechnung hinzufügen.',

  // Rechnungen und ihre Dokumente
  DUPLICATE_INVOICE_NUMBER:
    'Diese Rechnungsnummer ist bereits vergeben. Wählen Sie eine andere oder lassen Sie das Feld leer, um den Nummernkreis zu verwenden.',
  INVOICE_NOT_DRAFT: 'Nur Entwürfe können geändert werden. Diese Rechnung ist festgeschrieben, storniert oder wird gerade festgeschrieben.',
  INVOICE_NOT_VALID:
    'Die Rechnung kann noch nicht festgeschrieben werden: Angaben fehlen oder sind fehlerhaft. Öffnen Sie die Prüfung der Rechnung, um zu sehen, was zu ergänzen ist.',
  VAT_OVERRIDE_REQUIRED:
    'Die USt-IdNr. des Kunden konnte nicht bestätigt werden. Korrigieren Sie sie beim Kunden oder bestätigen Sie, dass Sie die Rechnung trotzdem festschreiben wollen.',
  JOB_IN_PROGRESS: 'Diese Rechnung wird gerade festgeschrieben. Warten Sie einen Moment und laden Sie die Seite neu.',
  INVOICE_ALREADY_FINALIZED: 'Eine festgeschriebene Rechnung kann nicht storniert werden. Erstellen Sie stattdessen eine Gutschrift.',
  INVOICE_NOT_FINALIZED:
    'Nur festgeschriebene Rechnungen können gutgeschrieben oder als versendet oder bezahlt markiert werden. Schreiben Sie die Rechnung zuerst fest.',
  INVALID_CREDIT_NOTE: 'Eine Gutschrift kann nicht erneut gutgeschrieben werden.',
  CREDIT_EXCEEDS_INVOICE:
    'Die Gutschriften würden zusammen mehr als den Bruttobetrag der Rechnung gutschreiben. Verringern Sie den Betrag auf das, was noch gutgeschrieben werden kann.',
  INVALID_STATUS_TRANSITION: 'Dieser Statuswechsel ist vom aktuellen Status der Rechnung aus nicht möglich. Laden Sie die Seite neu.',
  ATTACHMENT_NOT_FOUND:
    'Dieser Anhang der empfangenen E-Rechnung ist nicht gespeichert: Er war dort nicht eingebettet oder überschritt die Grenzen (siehe die Hinweise zum Dokument).',
  ATTACHMENT_LIMIT_REACHED: 'Diese Rechnung hat bereits 20 Anhänge, das Maximum. Entfernen Sie zuerst einen.',
  ATTACHMENT_TOO_LARGE: 'Ein Anhang darf höchstens 5 MB groß sein. Wählen Sie eine kleinere Datei.',
  ATTACHMENT_QUOTA_EXCEEDED:
    'Die Anhänge einer Rechnung dürfen zusammen höchstens 25 MB groß sein. Entfernen Sie einen Anhang oder wählen Sie eine kleinere Datei.',
  UNSUPPORTED_ATTACHMENT_TYPE:
    'Dieser Dateityp kann nicht angehängt werden. Verwenden Sie PDF, DOCX, XLSX, PNG, JPEG, WebP, GIF oder TIFF.',

  // Versand per E-Mail
  INVOICE_NOT_SENDABLE: 'Nur festgeschriebene Rechnungen können per E-Mail versendet werden. Schreiben Sie die Rechnung zuerst fest.',
  EMAIL_TOO_LARGE: 'Die Anhänge dieser E-Mail sind größer als 20 MB. Senden Sie weniger oder kleinere Anhänge.',
  EMAIL_LIMIT_EXCEEDED:
    'Das heutige E-Mail-Limit ist erreicht (für das Unternehmen oder für diese Rechnung). Bitte senden Sie die E-Mail morgen erneut.',

  // Zahlungen, Mahnwesen
  INVOICE_NOT_PAYABLE:
    'Zahlungen können nur zu festgeschriebenen, offenen Rechnungen erfasst werden, nicht zu einem Entwurf oder einer stornierten Rechnung.',
  INVOICE_ALREADY_PAID:
    'Diese Rechnung ist bereits vollständig bezahlt. Um die Zahlung anders zu erfassen, stornieren Sie zuerst eine Zahlung.',
  PAYMENT_EXCEEDS_OPEN_AMOUNT:
    'Die Zahlung (mit einem etwaigen Skonto) ist höher als der offene Betrag der Rechnung. Prüfen Sie den Betrag.',
  SKONTO_NOT_APPLICABLE:
    'Skonto ist nicht möglich: Die Rechnung hat keines, es wurde bereits gewährt, die Skontofrist ist abgelaufen oder der Betrag ist nicht der offene Betrag abzüglich Skonto.',
  PAYMENT_EXPORTED: 'Diese Zahlung ist bereits in einem DATEV-Export enthalten und kann nicht mehr storniert werden.',
  INVOICE_NOT_REMINDABLE:
    'Nur festgeschriebene, offene Rechnungen können gemahnt werden, nicht ein Entwurf, eine stornierte Rechnung oder eine Gutschrift.',
  INVOICE_NOT_OVERDUE: 'Diese Rechnung ist noch nicht überfällig. Eine Mahnung ist ab dem Tag nach dem Fälligkeitsdatum möglich.',
  REMINDER_LEVEL_ISSUED:
    'Diese Rechnung hatte bereits eine Mahnung dieser oder einer höheren Stufe. Jede Mahnstufe wird einmal und der Reihe nach erstellt.',
  REMINDER_LEVELS_EXHAUSTED: 'Diese Rechnung hatte bereits alle drei Mahnstufen (Zahlungserinnerung, 1. und 2. Mahnung).',

  // Kontoauszüge
  NOT_CAMT053: 'Diese Datei ist kein Kontoauszug im Format camt.053. Laden Sie den Kontoauszug bei Ihrer Bank im Format camt.053 herunter.',
  BANK_STATEMENT_INVALID:
    'Der Kontoauszug enthält ungültige Werte. Laden Sie ihn erneut bei Ihrer Bank herunter und laden Sie die Originaldatei hoch.',
  BANK_STATEMENT_TOO_LARGE: 'Der Kontoauszug ist größer als 20 MB. Laden Sie einen kürzeren Zeitraum herunter.',
  BANK_STATEMENT_TOO_MANY_ENTRIES: 'Der Kontoauszug hat zu viele Buchungen. Laden Sie einen kürzeren Zeitraum herunter.',
  BANK_ENTRY_NOT_A_CREDIT: 'Nur Zahlungseingänge können als Zahlung gebucht werden; Abbuchungen und Rückbuchungen werden nur angezeigt.',
  BANK_ENTRY_CURRENCY_MISMATCH:
    'Der Zahlungseingang ist nicht in Euro. Erfassen Sie den Euro-Betrag, den Ihre Bank gebucht hat, als Zahlung zur Rechnung.',
  BANK_ENTRY_UNMATCHED: 'Zu dieser Buchung wurde keine Rechnung gefunden. Wählen Sie die Rechnung, auf die sie gebucht werden soll.',
  BANK_ENTRY_ALREADY_CONFIRMED:
    'Diese Buchung ist bereits als Zahlung erfasst. Um sie anders zu buchen, stornieren Sie zuerst diese Zahlung.',
  BANK_AMOUNT_EXCEEDS_CREDIT: 'Der Betrag ist höher als der Zahlungseingang dieser Buchung. Prüfen Sie den Betrag.',

  // wiederkehrende Rechnungen
  RECURRING_LIMIT: 'Ihr Unternehmen hat bereits 500 laufende wiederkehrende Rechnungen, das Maximum. Beenden Sie zuerst eine.',
  RECURRING_ENDED: 'Diese wiederkehrende Rechnung ist beendet. Setzen Sie ein späteres Enddatum, um sie fortzusetzen.',
  RECURRING_TEMPLATE_NOT_VALID:
    'Rechnungen aus dieser Vorlage könnten nicht festgeschrieben werden: Angaben in der Vorlage, beim Kunden oder im Unternehmensprofil fehlen oder sind fehlerhaft.',

  // empfangene E-Rechnungen
  DOCUMENT_TOO_LARGE: 'Die Datei ist zu groß (XML höchstens 5 MB, PDF höchstens 10 MB).',
  UNSUPPORTED_FORMAT:
    'Diese Datei ist keine E-Rechnung, die wir lesen können. Laden Sie eine XRechnung, eine UBL- oder CII-XML-Datei oder ein ZUGFeRD-/Factur-X-PDF hoch.',
  PDF_WITHOUT_EINVOICE:
    'Dieses PDF enthält keine E-Rechnungsdaten (es ist kein ZUGFeRD/Factur-X). Fordern Sie beim Rechnungssteller die E-Rechnung an.',
  PDF_MALFORMED:
    'Das PDF kann nicht gelesen werden (beschädigt oder verschlüsselt). Fordern Sie beim Rechnungssteller die Originaldatei oder die XML-E-Rechnung an.',
  XML_NOT_WELL_FORMED: 'Die XML-Datei ist beschädigt oder unvollständig. Fordern Sie beim Absender die Originaldatei an.',
  XML_DTD_FORBIDDEN:
    'Die XML-Datei enthält eine Dokumenttyp-Deklaration, die E-Rechnungen und Kontoauszüge nie haben. Laden Sie die Originaldatei hoch.',
  XML_ENCODING_UNSUPPORTED: 'Die XML-Datei ist nicht in UTF-8 codiert. Fordern Sie beim Absender eine UTF-8-Datei an.',
  XML_TOO_DEEP:
    'Die XML-Datei ist viel tiefer verschachtelt, als eine E-Rechnung oder ein Kontoauszug es je ist. Laden Sie die Originaldatei hoch.',
  XML_TOO_COMPLEX: 'Die XML-Datei ist zu umfangreich für die Prüfung. Fordern Sie beim Absender ein kleineres Dokument an.',
  DOCUMENT_PROCESSING: 'Dieses Dokument wird noch gelesen. Bitte warten Sie einen Moment und laden Sie die Seite neu.',
  DOCUMENT_NOT_READABLE:
    'Dieses Dokument konnte nicht als E-Rechnung gelesen werden, daher gibt es keine Ansicht. Den Grund finden Sie in seinen Details.',
  VALIDATION_TIMEOUT: 'Die Prüfung dieses Dokuments hat zu lange gedauert; es ist zu umfangreich für die Prüfung.',
  PROCESSING_FAILED: 'Das Lesen dieses Dokuments ist auf unserer Seite fehlgeschlagen. Bitte laden Sie es erneut hoch.',
  RENDER_UNAVAILABLE: 'Die Ansicht dieser E-Rechnung kann gerade nicht angezeigt werden. Bitte versuchen Sie es später erneut.',

  // unsere Seite
  INTERNAL_ERROR:
    'Auf unserer Seite ist ein Fehler aufgetreten. Bitte versuchen Sie es erneut; tritt er wieder auf, wenden Sie sich an den Support.',
  NOT_IMPLEMENTED: 'Diese Funktion ist noch nicht verfügbar.',
  SERVICE_UNAVAILABLE: 'Diese Funktion ist vorübergehend nicht erreichbar. Bitte versuchen Sie es gleich erneut.',
  SERVICE_BUSY: 'Der Dienst ist gerade stark ausgelastet. Bitte versuchen Sie es gleich erneut.',
  UPSTREAM_TIMEOUT: 'Der Dienst hat nicht rechtzeitig geantwortet. Bitte versuchen Sie es gleich erneut.',
};
