module.exports = { ...require('../../jest.preset.cjs'), displayName: 'customer-service', rootDir: __dirname };
