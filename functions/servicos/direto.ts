/**
 * The services context's direct front door (docs/architecture.md, "Contexts and their front doors"):
 * the active catalogue, read without the table layer, for the look-up's cold start (issue 39).
 * index.ts publishes it too.
 */
export { ativos } from './ativos';
