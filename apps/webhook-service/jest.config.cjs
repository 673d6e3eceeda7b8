module.exports = { ...require('../../jest.preset.cjs'), displayName: 'webhook-service', rootDir: __dirname };
