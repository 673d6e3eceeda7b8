import { runMain } from '@inv/runtime';
import { createExportService, exportConfig } from './export-service';

runMain('export-service', exportConfig, createExportService);
