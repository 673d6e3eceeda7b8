import type { ObjectStore } from '@inv/objects';
import type { Counters } from '@inv/runtime';
import type { Logger } from '@inv/service-kit';
import type { InboundDocuments } from '../db/inbound-documents';
import type { ConformanceKit } from './conformance-kit';

export interface InboundDeps {
  documents: InboundDocuments;
  counters: Counters;
  objects: ObjectStore;
  kit: ConformanceKit;
  logger: Logger;
  now: () => Date;
}
