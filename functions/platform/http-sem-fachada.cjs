/**
 * `node:http` for the Lambda bundles, without its ES module facade. Node 24 builds the facade of a
 * built-in module by reading every export, and node:http's WebSocket, CloseEvent and MessageEvent are
 * getters that load undici: about 40 ms of every cold start, paid at import by @middy/util (which
 * imports STATUS_CODES) and at the first plain-http request by the SDK's handler (the twin's endpoints).
 * bundle-options.ts aliases `node:http` and `http` here; process.getBuiltinModule hands back the
 * CommonJS module itself, whose getters run only if someone reads them.
 */
module.exports = process.getBuiltinModule('node:http');
