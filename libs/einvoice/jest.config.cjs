module.exports = { ...require('../../jest.preset.cjs'), displayName: 'einvoice', rootDir: __dirname };
