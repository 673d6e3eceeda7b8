/**
 * The id of a company: the tenant every scoped read and write is confined to. Branded, so that a plain string (a
 * path parameter, a field of a request body or of a document) cannot be handed to a tenant-scoped repository
 * method by mistake. It is produced where the company is known for certain: `companyIdOf(req)` (libs/service-kit,
 * the verified identity token) and a received message's envelope (`msg.companyId`, libs/runtime EventOf and its
 * kin: the company the publishing service committed the message for). `asCompanyId` is for the few other
 * sources, each a deliberate decision: a company being created, a document read back across companies, tests.
 */
export type CompanyId = string & { readonly __brand: 'CompanyId' };

/** A string taken as a company's id (see CompanyId for where ids come from without it). */
export const asCompanyId = (id: string): CompanyId => id as CompanyId;
