import { randomInt, randomUUID } from 'node:crypto';
import type { Principal } from '@plac/shared/access';
import { cnpjCheckDigits, foldText } from '@plac/shared/domain';
import { inject } from 'vitest';
import { putCliente } from '../../functions/clientes/store';
import { salvarTermo } from '../../functions/consentimento/service';
import { createAutorizacao, createInstituicao, findInstituicaoByCnpj } from '../../functions/instituicoes/store';
import { ensureTestIcp } from '../../infra/local/emulators/test-pki';

/** What the look-up tests set up: clients with their e-CNPJ, ESF authorisations and issuers' consents. */

const twin = () => inject('twin');

/** A fresh valid CNPJ, so each test sees only its own issuers, recipients and carriers. */
export function novoCnpj(): string {
  const first12 = `${String(randomInt(10_000_000, 99_999_999))}0001`;
  return `${first12}${cnpjCheckDigits(first12)}`;
}

export async function novoCliente(tipo: 'ESF' | 'IMF' | 'SHOPPING', situacao: 'A' | 'E' | 'N' = 'A') {
  const cnpj = novoCnpj();
  const clienteId = `consulta-${randomUUID()}`;
  const razaoSocial = `CLIENTE CONSULTA ${tipo} ${cnpj.slice(0, 6)}`;
  const now = new Date().toISOString();
  await putCliente({
    clienteId, cnpj, razaoSocial, razaoFolded: foldText(razaoSocial), tipoCliente: tipo, situacao, email: `${clienteId}@teste.local`, uf: 'GO',
    logradouro: 'Rua 1', numero: '1', bairro: 'Centro', cidade: 'Goiânia', cep: '74000000', telefone: '62999990000', nomeResponsavel: 'Resp',
    categoria: 'PRIVADA', createdAt: now, updatedAt: now, updatedBy: 'teste',
  });
  const icp = await ensureTestIcp(twin().dataDir, [{ cnpj, razaoSocial }]);
  return { clienteId, cnpj, razaoSocial, cert: icp.certificates[cnpj]! };
}

/** The client's AUTORIZADO ESF authorisation for the institution of that base CNPJ. */
export async function autorizar(c: { clienteId: string; cnpj: string; razaoSocial: string }, cnpjInst: string) {
  const hoje = new Date().toISOString().slice(0, 10);
  await createAutorizacao({
    clienteId: c.clienteId, cnpjInst, instituicaoId: `inst-${cnpjInst}`, razaoSocialInst: 'Banco Teste', cnpjCliente: c.cnpj, razaoSocialCliente: c.razaoSocial,
    status: 'AUTORIZADO', dataAutorizacao: hoje, arquivoKey: 'x.pdf', nomeArquivo: 'x.pdf', createdAt: hoje, updatedAt: hoje,
  });
}

/** The issuer's consent (functions/consentimento) sharing its billing with the institution of that base CNPJ. */
export async function consentir(cnpjEmitente: string, cnpjInst: string) {
  let inst = await findInstituicaoByCnpj(cnpjInst);
  if (!inst) {
    const at = new Date().toISOString();
    await createInstituicao({
      instituicaoId: `consulta-inst-${cnpjInst}`, razaoSocial: 'Banco Teste', razaoFolded: 'banco teste', cnpj: cnpjInst, uf: 'BA', tipo: 'ESF',
      situacao: 'ATIVA', regulada: true, createdAt: at, updatedAt: at,
    }).catch(() => undefined);
    inst = await findInstituicaoByCnpj(cnpjInst);
  }
  const principal: Principal = { userId: `emissor-${cnpjEmitente}`, name: 'Emitente Consulta', tipo: 'C', roles: ['emissor'] };
  await salvarTermo(
    {
      termoFatMensal: true,
      termoCompartNfe: true,
      filiais: [{ cnpj: cnpjEmitente, razaoSocial: 'Emitente Consulta', email: 'emitente@consulta.local', uf: 'RN', termoFatMensal: true }],
      inst_financeiras: [{ id: inst!.instituicaoId, termoFatMensal: true }],
    },
    principal,
  );
}

