module.exports = { ...require('../../jest.preset.cjs'), displayName: 'outbox', rootDir: __dirname };
