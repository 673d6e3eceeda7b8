// The inspection worker when the service runs from source (npm start under tsx, jest): a worker thread does not
// inherit jest's transform, so it loads the TypeScript entry through tsx's require hook. The compiled service
// starts dist/inbound-service/inspect.worker.js instead (tools/build-services.mjs).
require('tsx/cjs');
module.exports = require('./inspect.worker.ts');
