module.exports = { ...require('../../jest.preset.cjs'), displayName: 'money', rootDir: __dirname };
