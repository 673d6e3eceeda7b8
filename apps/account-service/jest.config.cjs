module.exports = { ...require('../../jest.preset.cjs'), displayName: 'account-service', rootDir: __dirname };
