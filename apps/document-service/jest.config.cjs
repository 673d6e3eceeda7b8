module.exports = { ...require('../../jest.preset.cjs'), displayName: 'document-service', rootDir: __dirname };
