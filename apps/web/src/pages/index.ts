import type { Router } from 'express';
import type { PagesKit } from '../kit/pages-kit';
import { registerSignInPages } from './sign-in/sign-in.pages';
import { registerKeyPages } from './keys/keys.pages';
import { registerMemberPages } from './members/members.pages';
import { registerWebhookPages } from './webhooks/webhooks.pages';
import { registerBankStatementPages } from './bank/bank.pages';
import { registerReminderPages } from './reminders/reminders.pages';
import { registerRecurringPages } from './recurring/recurring.pages';

/** Every page of the dashboard, by section (each folder one section: its routes, texts and tests). */
export function registerPages(router: Router, kit: PagesKit): void {
  registerSignInPages(router, kit);
  registerKeyPages(router, kit);
  registerMemberPages(router, kit);
  registerWebhookPages(router, kit);
  registerBankStatementPages(router, kit);
  registerReminderPages(router, kit);
  registerRecurringPages(router, kit);
}
