/**
 * The assignments context's direct front door (docs/architecture.md, "Contexts and their front doors"):
 * a Fat-e's assignments, read without the table layer, for the look-up's cold start (issue 39).
 * index.ts publishes it too.
 */
export { comCessoes } from './com-cessoes';
