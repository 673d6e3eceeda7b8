// The whole-system tests run every service on the CI machine's two cores while other projects' tests run beside them:
// a waitFor without its own timeout waits 60 s here (libs/testing), not 15 s.
process.env.TEST_WAIT_TIMEOUT_MS ??= '60000';
