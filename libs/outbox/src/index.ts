export * from './outbox';
export * from './relay';
export * from './commit';
export * from './inbox';
export * from './metrics';
export * from './group-commit';
export * from './pending';
export * from './request-journal';
