/**
 * The metering context's direct front door (docs/architecture.md, "Contexts and their front doors"):
 * a look-up's charge and its not-found record, written without the table layer, for the look-up's cold
 * start (issue 39). index.ts publishes them too.
 */
export { cobrarConsulta, registrarNaoEncontrada } from './cobranca';
