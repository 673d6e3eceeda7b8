module.exports = { ...require('../../jest.preset.cjs'), displayName: 'gateway', rootDir: __dirname };
