export * from './service-runtime';
export * from './messages';
export * from './counters';
export * from './run-main';
export * from './process-launcher';
export * from './node-flags';
export * from './ports';
export * from './handlers';
