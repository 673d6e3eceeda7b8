/**
 * Test helpers that start services as processes (`@inv/runtime/testing`): for test files only, never imported by
 * production code (it starts an embedded MongoDB). Kept beside the launcher it drives, so that `@inv/testing` does not
 * depend on `@inv/runtime` (whose own tests use `@inv/testing`).
 */
export * from './crash-retry-harness';
