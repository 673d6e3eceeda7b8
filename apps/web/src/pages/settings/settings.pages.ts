import type { Router } from 'express';
import type { PagesKit } from '../../kit/pages-kit';
import { registerAccountMappingPages } from './accounts';
import { registerBankAccountPages } from './bank-accounts';
import { registerDatevPages } from './datev';
import { registerNumberingPages } from './numbering';
import { registerPaymentTermPages } from './payment-terms';
import { registerProfilePages } from './profile';

/**
 * Settings: the company profile and logo, bank accounts, payment terms, numbering, e-mail texts and DATEV.
 * Everyone reads them; owners and admins change them (`company:write`); DATEV configuration and exports need
 * `export` (members too); the API checks each call again.
 */
export function registerSettingsPages(router: Router, kit: PagesKit): void {
  registerProfilePages(router, kit);
  registerBankAccountPages(router, kit);
  registerPaymentTermPages(router, kit);
  registerNumberingPages(router, kit);
  registerDatevPages(router, kit);
  registerAccountMappingPages(router, kit);
}
