module.exports = { ...require('../../jest.preset.cjs'), displayName: 'inbound-service', rootDir: __dirname };
