/**
 * The document monitoring's front door: which clients monitor a key (the webhook producers notify
 * them). Other contexts import only this module (functions/platform/dependencies.test.ts).
 */
export { clientesQueMonitoram } from './service';
