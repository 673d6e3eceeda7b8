import { runMain } from '@inv/runtime';
import { documentConfig } from './config';
import { createDocumentService } from './document-service';

runMain('document-service', documentConfig, createDocumentService);
