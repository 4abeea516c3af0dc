/**
 * Compile-time checks of the client's typing (run by `tsc -p web`, never executed or bundled): the
 * input a call needs follows its contract.
 */
import { dominio, platform } from '@plac/shared/contracts';
import { callApi } from './client';

export async function contractTypingChecks() {
  // No input needed for a contract without params, query or body.
  const ufs: string[] = await callApi(dominio.ufs);
  // Path parameters are required where the contract has them ...
  // @ts-expect-error params missing
  await callApi(dominio.cidades);
  // @ts-expect-error text missing
  await callApi(dominio.cidades, { params: { uf: 'BA' } });
  // ... and refused where it has none.
  // @ts-expect-error ufs takes no params
  await callApi(dominio.ufs, { params: { uf: 'BA' } });
  // The answer is typed by the response schema.
  const cities = await callApi(dominio.cidades, { params: { uf: 'BA', text: 'salv' } });
  const name: string | undefined = cities[0]?.nome;
  // @ts-expect-error nome is a string
  const wrong: number | undefined = cities[0]?.nome;
  const html: string = await callApi(platform.docs);
  return { ufs, name, wrong, html };
}
