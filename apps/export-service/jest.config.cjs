module.exports = { ...require('../../jest.preset.cjs'), displayName: 'export-service', rootDir: __dirname };
