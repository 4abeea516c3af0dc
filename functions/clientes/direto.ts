/**
 * The clients context's direct front door (docs/architecture.md, "Contexts and their front doors"): what
 * it publishes that reads without the table layer, for paths whose cold start must not load ElectroDB
 * (the integrator's look-up by key, issue 39). index.ts publishes the same functions too.
 */
export { clientePorCnpj, clienteResumo, type ClienteResumo } from './resumo';
