/**
 * The Fat-e context's direct front door (docs/architecture.md, "Contexts and their front doors"): a
 * Fat-e by key, read without the table layer, and its view, for the look-up's cold start (issue 39).
 * index.ts publishes them too.
 */
export { fatePorChave } from './fate-por-chave';
export { fateView } from './view';
