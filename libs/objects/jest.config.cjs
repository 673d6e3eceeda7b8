module.exports = { ...require('../../jest.preset.cjs'), displayName: 'objects', rootDir: __dirname };
