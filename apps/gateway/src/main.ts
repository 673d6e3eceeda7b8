import { runMain } from '@inv/runtime';
import { gatewayConfig } from './config';
import { createGateway } from './gateway';

runMain('gateway', gatewayConfig, createGateway);
