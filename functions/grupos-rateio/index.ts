/**
 * The sharing groups' front door (spec 3, 2.3-2.5, 3.6-3.10; docs/repasse.md): the groups of rateio and
 * their timeline, the participants and the banks (served by the rateio API's routes), and the rule that
 * splits one paid invoice among the group in force in its month (`partesDaFatura`, which billing writes on
 * its Pagamento de Serviços rows). This context reads no other: billing and the repasse both build on
 * it. Other contexts import only this module (functions/platform/dependencies.test.ts).
 */
export * as bancos from './bancos';
export * as grupos from './grupos';
export { partesDaFatura, PARTE_SEFAZ, type GrupoDoRepasse } from './partes';
