import { todayInBahia } from '@plac/shared/domain';
import type { FateRecord } from '../fate/service';

export { fateView } from '../fate/view';

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
