import { situacaoEmissor } from '@plac/shared/contracts/consentimento';
import { cnpjBase } from '@plac/shared/domain';
import * as store from './store';

/**
 * What other contexts ask of the consents, in a module of its own: the integrator's look-ups
 * (consulta), the webhook producers and the assignments (cessao) ask it on their hot paths, and
 * service.ts's screens bring the clients' and institutions' services into a bundle (issue 39).
 */

// ---- the look-ups' rule -----------------------------------------------------------------------------

/**
 * Whether the issuer (a branch's full CNPJ) has an active consent that shares its monthly billing with
 * the institution (base CNPJ): the consent authorised and not past its final validity, the branch
 * named with its monthly billing on, and the institution named with its monthly billing on. Read
 * consistently on every call, never cached: a removal takes effect on the next look-up.
 */
export async function consentimentoVigente(cnpjEmitente: string, cnpjBaseInstFin: string, agora: Date = new Date()): Promise<boolean> {
  const c = await store.findConsentimento(cnpjBase(cnpjEmitente));
  if (!c || !c.termoFatMensal || situacaoEmissor(c.dataVigenciaFinal, agora) !== 'Ativo') return false;
  const filial = c.filiais.find((f) => f.cnpj === cnpjEmitente.toUpperCase());
  const inst = c.instituicoes.find((i) => i.cnpj === cnpjBaseInstFin.toUpperCase());
  return Boolean(filial?.termoFatMensal && inst?.termoFatMensal);
}

// ---- the webhook producers' rules ---------------------------------------------------------------------

/**
 * The institutions (base CNPJs) the drawer — the Fat-e's issuer, a branch's full CNPJ — shares its
 * NF-e with: the consent authorised (NF-e sharing on) and Ativo, the branch named with NF-e sharing on,
 * each institution named with NF-e sharing on. Read consistently, never cached (as the look-ups' rule).
 */
export async function instituicoesDoSacador(cnpjEmitente: string, agora: Date = new Date()): Promise<string[]> {
  const c = await store.findConsentimento(cnpjBase(cnpjEmitente));
  if (!c || !c.termoCompartNfe || situacaoEmissor(c.dataVigenciaFinal, agora) !== 'Ativo') return [];
  const filial = c.filiais.find((f) => f.cnpj === cnpjEmitente.toUpperCase());
  if (!filial?.termoCompartNfe) return [];
  return c.instituicoes.filter((i) => i.termoCompartNfe).map((i) => i.cnpj);
}

/** The institutions (base CNPJs) a carrier (CNPJ or CPF) has an Ativo consent with (no final validity date, or one to come). */
export async function instituicoesDoTransportador(documento: string, agora: Date = new Date()): Promise<string[]> {
  const consentimentos = await store.transportesDoSacador(documento.toUpperCase());
  return [...new Set(consentimentos.filter((t) => situacaoEmissor(t.dataVigenciaFinal, agora) === 'Ativo').map((t) => t.cnpjInst))];
}
