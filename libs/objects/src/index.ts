export * from './object-store';
export * from './embedded-s3';
