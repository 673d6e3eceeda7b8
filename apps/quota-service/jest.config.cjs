module.exports = { ...require('../../jest.preset.cjs'), displayName: 'quota-service', rootDir: __dirname };
