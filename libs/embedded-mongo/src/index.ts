export { startEmbeddedMongo, resolveMongoUri } from './api';
export type { EmbeddedMongo, EmbeddedMongoOptions, ResolvedMongo } from './api';
export { EmbeddedMongoDataError } from './persistence/data-dir';
export type { DataErrorReason } from './persistence/data-dir';
