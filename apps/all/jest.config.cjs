module.exports = { ...require('../../jest.preset.cjs'), displayName: 'all', rootDir: __dirname };
