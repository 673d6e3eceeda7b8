export * from './object-store';
export * from './embedded-s3';
export * from './from-env';
export * from './test-company-prefix';
