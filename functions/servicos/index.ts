/**
 * The service catalogue's front door: every service, and the active ones. Other contexts import only
 * this module (functions/platform/dependencies.test.ts).
 */
export { ativos } from './ativos';
export { todos } from './service';
