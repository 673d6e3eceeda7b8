module.exports = { ...require('../../jest.preset.cjs'), displayName: 'embedded-mongo', rootDir: __dirname };
