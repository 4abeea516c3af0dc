/**
 * The assignment registry's front door: a Fat-e's view with the assignments registered on it (the
 * look-up shows them). Other contexts import only this module (functions/platform/dependencies.test.ts).
 */
export { comCessoes } from './com-cessoes';
