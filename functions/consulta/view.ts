import { avaliarEvidencia, todayInBahia, type Evidencia } from '@plac/shared/domain';
import { comCessoes } from '../cessao';
import * as fate from '../fate';
import { fateView, type FateRecord } from '../fate';

/**
 * The receivable's evidence of a stored Fat-e (docs/recebivel.md): the Fat-e context's facts of the
 * key (events, returns, CT-e), the instalments' assignments (functions/cessao), judged by the shared
 * rules (shared/src/domain/evidencia.ts) as of today in Bahia (due today is still A_VENCER).
 */
export async function evidenciaDe(f: FateRecord, agora: Date): Promise<Evidencia> {
  const [comCessao, fatos] = await Promise.all([comCessoes(fateView(f)), fate.evidenciaDaChave(f.chave)]);
  return avaliarEvidencia(
    {
      situacao: f.status,
      emissao: f.emissao,
      autorizadaEm: f.autorizadaEm,
      valorNota: f.valorNota,
      valorLiquido: f.valorLiquido,
      cancelamento: f.canceladaEm ? { data: f.canceladaEm, protocolo: f.protocoloCancelamento ?? '' } : null,
      parcelas: comCessao.duplicatas.map((d) => ({ numero: d.numero, vencimento: d.vencimento, valor: d.valor, cessao: d.cessao ?? null })),
      ...fatos,
    },
    todayInBahia(agora),
  );
}

/** A receivable under evaluation: the Fat-e's status and values, what is still to fall due, and its evidence. */
export function recebivelView(f: FateRecord, evidencia: Evidencia, agora: Date) {
  return {
    chave: f.chave,
    situacao: f.status,
    uf: f.uf,
    emitente: { cnpj: f.emitenteCnpj, nome: f.emitenteNome },
    destinatario: { documento: f.destinatarioDoc, nome: f.destinatarioNome },
    emissao: f.emissao,
    valorNota: f.valorNota,
    valorLiquido: f.valorLiquido,
    cancelamento: f.canceladaEm ? { data: f.canceladaEm, protocolo: f.protocoloCancelamento ?? '' } : null,
    saldoAVencer: evidencia.parcelas.filter((p) => p.situacao === 'A_VENCER').reduce((s, p) => s + p.valor, 0),
    consultadoEm: agora.toISOString(),
    ...evidencia,
  };
}
