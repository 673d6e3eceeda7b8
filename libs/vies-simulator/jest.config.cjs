module.exports = { ...require('../../jest.preset.cjs'), displayName: 'vies-simulator', rootDir: __dirname };
