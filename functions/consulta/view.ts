import type { FateView } from '@plac/shared/contracts/consulta';
import { todayInBahia } from '@plac/shared/domain';
import type { FateRecord } from '../fate/service';

/** What a look-up answers about a Fat-e: the contract's shape, from the stored record. */
export function fateView(f: FateRecord): FateView {
  return {
    chave: f.chave,
    situacao: f.status,
    uf: f.uf,
    modelo: f.modelo,
    serie: f.serie,
    numero: f.numero,
    emissao: f.emissao,
    protocolo: f.protocolo ?? null,
    emitente: { cnpj: f.emitenteCnpj, nome: f.emitenteNome, uf: f.emitenteUf },
    destinatario: { documento: f.destinatarioDoc, tipo: f.destinatarioTipo, nome: f.destinatarioNome, uf: f.destinatarioUf ?? null },
    transportador: f.transportadorDoc ? { documento: f.transportadorDoc, nome: f.transportadorNome ?? null } : null,
    valorNota: f.valorNota,
    fatura: { numero: f.faturaNumero ?? null, valorOriginal: f.valorOriginal, desconto: f.desconto, valorLiquido: f.valorLiquido },
    duplicatas: f.duplicatas.map((d) => ({ numero: d.numero, vencimento: d.vencimento, valor: d.valor })),
    cancelamento: f.canceladaEm ? { data: f.canceladaEm, protocolo: f.protocoloCancelamento ?? '' } : null,
  };
}

export type SituacaoParcela = 'A_VENCER' | 'VENCIDA' | 'CANCELADA';

/**
 * A receivable under evaluation: each instalment as of today in Bahia (due today is still A_VENCER),
 * every one CANCELADA with a cancelled Fat-e, and what is still to fall due.
 */
export function recebivelView(f: FateRecord, agora: Date) {
  const hoje = todayInBahia(agora);
  const parcelas = f.duplicatas.map((d) => ({
    numero: d.numero,
    vencimento: d.vencimento,
    valor: d.valor,
    situacao: (f.status === 'CANCELADA' ? 'CANCELADA' : d.vencimento < hoje ? 'VENCIDA' : 'A_VENCER') as SituacaoParcela,
  }));
  return {
    chave: f.chave,
    situacao: f.status,
    uf: f.uf,
    emitente: { cnpj: f.emitenteCnpj, nome: f.emitenteNome },
    destinatario: { documento: f.destinatarioDoc, nome: f.destinatarioNome },
    valorLiquido: f.valorLiquido,
    parcelas,
    saldoAVencer: parcelas.filter((p) => p.situacao === 'A_VENCER').reduce((s, p) => s + p.valor, 0),
    consultadoEm: agora.toISOString(),
  };
}
