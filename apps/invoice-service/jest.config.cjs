module.exports = { ...require('../../jest.preset.cjs'), displayName: 'invoice-service', rootDir: __dirname };
