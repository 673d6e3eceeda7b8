import type { ObjectStore } from '@inv/objects';
import type { Counters } from '@inv/runtime';
import type { Logger } from '@inv/service-kit';
import type { InboundDocuments } from '../db/inbound-documents';
import type { Suppliers } from '../db/suppliers';
import type { Inspector } from './inspector';

export interface InboundDeps {
  documents: InboundDocuments;
  suppliers: Suppliers;
  counters: Counters;
  objects: ObjectStore;
  inspector: Inspector;
  logger: Logger;
  now: () => Date;
}
