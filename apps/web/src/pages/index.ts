import type { Router } from 'express';
import type { PagesKit } from '../kit/pages-kit';
import { registerSignInPages } from './sign-in/sign-in.pages';
import { registerKeyPages } from './keys/keys.pages';
import { registerMemberPages } from './members/members.pages';
import { registerWebhookPages } from './webhooks/webhooks.pages';
import { registerInvoicePages } from './invoices/invoices.pages';
import { registerCustomerPages } from './customers/customers.pages';
import { registerReceivedPages } from './received/received.pages';
import { registerSettingsPages } from './settings/settings.pages';
import { registerDeveloperPages } from './developers/developers.pages';
import { registerBankStatementPages } from './bank/bank.pages';
import { registerReminderPages } from './reminders/reminders.pages';
import { registerRecurringPages } from './recurring/recurring.pages';
import { registerPasswordResetPages } from './password-reset/password-reset.pages';
import { registerRequestLogPages } from './request-log/request-log.pages';

/** Every page of the dashboard, by section (each folder one section: its routes, texts and tests). */
export function registerPages(router: Router, kit: PagesKit): void {
  registerSignInPages(router, kit);
  registerKeyPages(router, kit);
  registerMemberPages(router, kit);
  registerWebhookPages(router, kit);
  registerInvoicePages(router, kit);
  registerCustomerPages(router, kit);
  registerReceivedPages(router, kit);
  registerSettingsPages(router, kit);
  registerDeveloperPages(router, kit);
  registerBankStatementPages(router, kit);
  registerReminderPages(router, kit);
  registerRecurringPages(router, kit);
  registerPasswordResetPages(router, kit);
  registerRequestLogPages(router, kit);
}
