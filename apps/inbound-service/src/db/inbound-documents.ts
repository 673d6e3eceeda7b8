import { Schema, type Connection } from 'mongoose';
import type { CompanyId, InboundFormat, InboundContent, InboundFinding } from '@inv/contracts';
import { AS_BUILT, driverCollection } from '@inv/service-kit';

export interface InboundDoc {
  _id: string; // `${companyId}:${id}`
  companyId: CompanyId;
  id: number;
  status: 'RECEIVED' | 'REJECTED';
  valid: boolean;
  receivedAt: Date;
  filename?: string;
  mediaType: 'application/xml' | 'application/pdf';
  size: number;
  sha256: string;
  objectKey: string;
  format: InboundFormat;
  profile: string;
  version?: string;
  customizationId: string;
  documentType: 'INVOICE' | 'CREDIT_NOTE';
  findings: InboundFinding[];
  content: InboundContent;
  /** Copies of content fields the list shows and filters on (sellerVatId indexed), so a list never reads content. */
  sellerVatId?: string;
  supplierId?: number;
  duplicateOf?: number;
  ibanDiffers: boolean;
  summary: { number?: string; issueDate?: string; sellerName?: string; payable?: string; currency?: string; errorCount: number };
}

// the document is written and read as built (driver calls): its nested content is the contract's shape
const schema = new Schema<InboundDoc>({ _id: String }, { strict: false, versionKey: false });
schema.index({ companyId: 1, id: -1 }, { unique: true });
schema.index({ companyId: 1, valid: 1, id: -1 });
schema.index({ companyId: 1, status: 1, id: -1 });
schema.index({ companyId: 1, sellerVatId: 1, id: -1 });
schema.index({ companyId: 1, 'summary.number': 1, id: 1 });

export interface InboundFilter {
  status?: InboundDoc['status'];
  valid?: boolean;
  sellerVatId?: string;
}

export function inboundDocuments(conn: Connection) {
  const model = conn.models.InboundDocument ?? conn.model<InboundDoc>('InboundDocument', schema, 'inbound_documents');
  const raw = driverCollection<InboundDoc>(model);
  const key = (companyId: CompanyId, id: number) => `${companyId}:${id}`;
  return {
    init: () => model.createIndexes(),
    insert: (doc: Omit<InboundDoc, '_id'>) => raw.insertOne({ _id: key(doc.companyId, doc.id), ...doc }, AS_BUILT),
    get: (companyId: CompanyId, id: number) => raw.findOne({ _id: key(companyId, id), companyId }),
    async remove(companyId: CompanyId, id: number): Promise<InboundDoc | null> {
      return raw.findOneAndDelete({ _id: key(companyId, id), companyId });
    },
    /** The earliest document of the same supplier (or, unmatched, seller VAT ID) with this invoice number. */
    async firstWithNumber(
      companyId: CompanyId,
      sender: { supplierId?: number; sellerVatId?: string },
      number: string,
    ): Promise<number | undefined> {
      const who =
        sender.supplierId !== undefined
          ? { supplierId: sender.supplierId }
          : sender.sellerVatId
            ? { sellerVatId: sender.sellerVatId }
            : undefined;
      if (!who) return undefined;
      const first = await raw.findOne({ companyId, 'summary.number': number, ...who }, { sort: { id: 1 }, projection: { id: 1 } });
      return first?.id;
    },
    async list(companyId: CompanyId, filter: InboundFilter, page: number, limit: number) {
      const q: Record<string, unknown> = { companyId };
      if (filter.status) q.status = filter.status;
      if (filter.valid !== undefined) q.valid = filter.valid;
      if (filter.sellerVatId) q.sellerVatId = filter.sellerVatId;
      const [items, total] = await Promise.all([
        raw
          .find(q, { projection: { content: 0, findings: 0 } })
          .sort({ id: -1 })
          .skip((page - 1) * limit)
          .limit(limit)
          .toArray(),
        raw.countDocuments(q),
      ]);
      return { items, total };
    },
  };
}
export type InboundDocuments = ReturnType<typeof inboundDocuments>;
