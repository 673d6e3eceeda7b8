module.exports = { ...require('../../jest.preset.cjs'), displayName: 'testing', rootDir: __dirname };
