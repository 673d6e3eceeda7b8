module.exports = { ...require('../../jest.preset.cjs'), displayName: 'vat-service', rootDir: __dirname };
