import { gravar as gravarConsentimento, padVersao } from '../../functions/consentimento/store';

/**
 * Test kit: a drawer's (issuer's) consent, written as the consent context keeps it, sharing its NF-e
 * with the institutions of these base CNPJs — what names the IMF clients that receive its Fat-e
 * (ESCR_FAT) and may register their assignments.
 */
export async function consentir(emitente: string, bases: readonly string[], uf: string): Promise<void> {
  const at = new Date().toISOString();
  const filiais = [{ cnpj: emitente, razaoSocial: 'EMITENTE', email: 'e@teste.local', uf, termoFatMensal: true, termoCompartNfe: true, createdAt: at, updatedAt: at }];
  const instituicoes = bases.map((cnpj) => ({
    instituicaoId: `inst-${cnpj}`, razaoSocial: 'Inst', cnpj, uf, situacao: 'ATIVA', tipo: 'IMF', termoFatMensal: true, termoCompartNfe: true,
    createdAt: at, updatedAt: at, createdBy: 'teste',
  }));
  const base = emitente.slice(0, 8);
  await gravarConsentimento({
    versaoLida: 0,
    atual: { emissor: base, razaoSocial: 'EMITENTE', razaoFolded: 'emitente', cnpj: emitente, uf, termoFatMensal: true, termoCompartNfe: true, filiais, instituicoes, versao: 1, dataAssinatura: at, createdAt: at, updatedAt: at, updatedBy: 'teste', updatedByCnpj: emitente },
    versao: { emissor: base, versao: padVersao(1), acao: 'ACEITE', em: at, cnpjCertificado: emitente, usuario: 'teste', userId: 'teste', termoFatMensal: true, termoCompartNfe: true, filiais, instituicoes },
  });
}
