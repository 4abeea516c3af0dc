/**
 * Demo carriers' and drawers' consents (the emissor-consentimento-transporte list): they come from
 * outside the portal, so the twin writes a few — the simulator's carriers, each naming one of the demo
 * institutions, of every carrier type, some ended — with fixed ids, so every start rewrites the same.
 */
import { addDays, todayInBahia, UFS } from '@plac/shared/domain';
import { putTransporte } from '../../functions/consentimento/store';
import { CARRIER_POOL } from './sefaz/documents';

/** Base CNPJs of demo institutions (infra/local/seed-instituicoes.ts): the bank and the registry. */
const INSTITUICOES = ['33445566', '66778899'] as const;

export async function seedConsentimentoTransporte(): Promise<void> {
  const hoje = todayInBahia();
  const now = new Date().toISOString();
  await Promise.all(
    CARRIER_POOL.map((carrier, i) =>
      putTransporte({
        cnpjInst: INSTITUICOES[i % INSTITUICOES.length]!,
        id: `demo-transporte-${i + 1}`,
        sacadorRazaoSocial: carrier.xNome,
        sacadorDocumento: carrier.cnpj,
        sacadorUf: UFS[(i * 7) % UFS.length]!.uf,
        numeroContrato: `${carrier.cnpj.slice(0, 8)}/${String(i + 1).padStart(4, '0')}`,
        dataAssinatura: `${addDays(hoje, -30 * (i + 1))}T12:00:00.000Z`,
        // Every third one ended last week (Desativado); the others run on (Ativo).
        ...(i % 3 === 2 ? { dataVigenciaFinal: `${addDays(hoje, -7)}T12:00:00.000Z` } : {}),
        // 0 MERCADORIA, 1 ETC, 2 MEI, 3 TAC, and one without a type (blank in the list).
        ...(i % 5 === 4 ? {} : { tipoTransportador: i % 4 }),
        createdAt: now,
      }),
    ),
  );
}
