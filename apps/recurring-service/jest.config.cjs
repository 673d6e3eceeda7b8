module.exports = { ...require('../../jest.preset.cjs'), displayName: 'recurring-service', rootDir: __dirname };
