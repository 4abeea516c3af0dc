import * as store from './store';

/**
 * What other contexts ask of the ESF authorisations, in a module of its own: the integrator's look-ups
 * (consulta) ask it on every billing look-up, and importing service.ts would bring the authorisations'
 * uploads (PDF, images: pngjs and jpeg-js, ~50 KiB) into their bundle (issue 39).
 */

/** Whether the client's ESF authorisation for the institution (base CNPJ) is AUTORIZADO (the billing look-ups' rule). */
export async function autorizacaoVigente(clienteId: string, cnpjInst: string): Promise<boolean> {
  return (await store.findAutorizacao(clienteId, cnpjInst))?.status === 'AUTORIZADO';
}

/** The base CNPJs of the institutions the client holds an AUTORIZADO ESF authorisation for (the consent lists' scope). */
export async function instituicoesAutorizadas(clienteId: string): Promise<string[]> {
  return (await store.autorizacoesDoCliente(clienteId)).filter((a) => a.status === 'AUTORIZADO').map((a) => a.cnpjInst);
}
