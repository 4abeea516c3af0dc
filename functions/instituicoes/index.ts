/**
 * The financial institutions' front door: an institution by id, and the client's authorisations in
 * force (the look-up and the consents check them). Other contexts import only this module
 * (functions/platform/dependencies.test.ts).
 */
export { get as instituicaoPorId } from './service';
export { autorizacaoVigente, instituicoesAutorizadas } from './autorizacoes-vigentes';
