import { runMain } from '@inv/runtime';
import { exportConfig } from './config';
import { createExportService } from './export-service';

runMain('export-service', exportConfig, createExportService);
