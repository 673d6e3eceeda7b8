export { startEmbeddedMongo, resolveMongoUri } from './api';
export type { EmbeddedMongo, EmbeddedMongoOptions, ResolvedMongo } from './api';
