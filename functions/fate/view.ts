import type { FateView } from '@plac/shared/contracts/fate-view';
import type { FateRecord } from './store-entities';

/** What a look-up answers about a Fat-e (the look-ups' and the trial's shape), from the stored record. */
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
