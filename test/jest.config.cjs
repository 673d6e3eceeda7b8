// forceExit: a spec whose clean-up hangs (a broker connection that never closes) must fail, never hold the run open
module.exports = {
  ...require('../jest.preset.cjs'),
  displayName: 'e2e',
  rootDir: __dirname,
  forceExit: true,
  setupFiles: ['<rootDir>/support/wait-longer.cjs'],
};
