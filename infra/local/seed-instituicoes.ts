/**
 * Demo data of the financial institutions and services: the service catalogue and a few
 * institutions in each status — one PENDENTE asked for by a client, one NOVO created by the demo
 * issuer. Fixed ids; what exists is left as it is.
 */
import { foldText } from '@plac/shared/domain';
import type { InstituicaoRecord } from '../../functions/instituicoes/store';
import { createInstituicao, findInstituicao } from '../../functions/instituicoes/store';
import { HttpError } from '../../functions/platform/errors';
import { seedCatalogo } from '../../functions/servicos/service';
import { DEMO_EMISSOR } from './demo-data';

type DemoInstituicao = Pick<InstituicaoRecord, 'instituicaoId' | 'razaoSocial' | 'cnpj' | 'uf' | 'situacao' | 'regulada'> &
  Partial<Pick<InstituicaoRecord, 'tipo' | 'emissorCnpj' | 'createdBy'>>;

export const DEMO_INSTITUICOES: readonly DemoInstituicao[] = [
  { instituicaoId: 'demo-inst-banco', razaoSocial: 'Banco Parceiro Demonstração S.A.', cnpj: '33445566', uf: 'BA', tipo: 'ESF', situacao: 'ATIVA', regulada: true },
  { instituicaoId: 'demo-inst-fidc', razaoSocial: 'Fundo de Recebíveis Demonstração FIDC', cnpj: '44556677', uf: 'SP', tipo: 'ESF', situacao: 'ATIVA', regulada: true },
  { instituicaoId: 'demo-inst-registradora', razaoSocial: 'Registradora Demonstração IMF S.A.', cnpj: '66778899', uf: 'RJ', tipo: 'IMF', situacao: 'ATIVA', regulada: true },
  { instituicaoId: 'demo-inst-desativada', razaoSocial: 'Crédito Desativado Demonstração S.A.', cnpj: '99001122', uf: 'MG', tipo: 'ESF', situacao: 'DESATIVADA', regulada: false },
  { instituicaoId: 'demo-inst-pendente', razaoSocial: 'Securitizadora Pendente Demonstração Ltda.', cnpj: '77889900', uf: 'PE', situacao: 'PENDENTE', regulada: false, createdBy: 'Cliente Demo' },
  { instituicaoId: 'demo-inst-novo', razaoSocial: 'Factoring Nova do Emissor Ltda.', cnpj: '88990011', uf: 'BA', situacao: 'NOVO', regulada: false, emissorCnpj: DEMO_EMISSOR.cnpj, createdBy: DEMO_EMISSOR.cnpj },
];

export async function seedInstituicoes(): Promise<void> {
  await seedCatalogo();
  const now = new Date().toISOString();
  for (const i of DEMO_INSTITUICOES) {
    if (await findInstituicao(i.instituicaoId)) continue;
    try {
      await createInstituicao({
        ...i,
        razaoFolded: foldText(i.razaoSocial),
        createdAt: now,
        updatedAt: now,
        createdBy: i.createdBy ?? 'dados de demonstração',
        updatedBy: i.createdBy ?? 'dados de demonstração',
      });
    } catch (error) {
      // Its base CNPJ was taken meanwhile (e.g. by a test): leave that one.
      if (!(error instanceof HttpError && error.status === 409)) throw error;
    }
  }
}
