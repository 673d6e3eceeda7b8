import { runMain } from '@inv/runtime';
import { createAccountService } from './account-service';
import { accountConfig } from './config';

runMain('account-service', accountConfig, createAccountService);
