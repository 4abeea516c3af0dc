import type { TipoArquivo } from '@plac/shared/arquivo';
import { SERVICO } from '@plac/shared/domain';
import * as consumo from '../consumo';
import * as faturas from '../faturamento';
import type { Linha } from '../platform/arquivo';
import * as debitos from '../prepago';
import { entregasPorId } from '../webhooks';

/**
 * Where each table of the archive (shared/src/arquivo.ts) comes from, through the owning context's
 * door: a client's month read a page at a time from a cursor, and the rows the table must hold by a
 * count kept apart from those items (the counters the invoice priced, the prepaid statement, the
 * invoice's lines). A table whose rows differ from that count leaves its month not archived.
 */
export interface Lote {
  linhas: Linha[];
  /** Where the next page starts; null when the month is read. */
  cursor: string | null;
}

export interface Fonte {
  ler(clienteId: string, mes: string, cursor: string | null, limite: number): Promise<Lote>;
  /** The rows the count expects (of those `contada` accepts). */
  esperadas(clienteId: string, mes: string): Promise<number>;
  /** Which rows that count covers (absent: all). */
  contada?: (l: Linha) => boolean;
}

/** The log's id is '<client>:<idempotency key>' for a look-up: the archive, like the report, shows the client's key. */
const idDoCliente = (clienteId: string, requestId: string) => (requestId.startsWith(`${clienteId}:`) ? requestId.slice(clienteId.length + 1) : requestId);

/** A delivery metered as 'Envio de Fat-e' is logged as `#medicao:entrega:<deliveryId>` (webhooks/medicao.ts). */
const PREFIXO_ENTREGA = '#medicao:entrega:';

const somaDoServico = async (clienteId: string, mes: string, servico?: number) =>
  (await consumo.requisicoesDoMesPorServico(clienteId, mes)).filter((s) => servico === undefined || s.servico === servico).reduce((t, s) => t + s.requisicoes, 0);

export const FONTES: Record<TipoArquivo, Fonte> = {
  requisicoes: {
    async ler(clienteId, mes, cursor, limite) {
      const p = await consumo.paginaDoLog(clienteId, mes, { cursor, limite });
      return {
        linhas: p.data.map((r) => ({ request_id: idDoCliente(clienteId, r.requestId), servico: r.servico, uf: r.uf, chave: r.chave, criado_em: r.createdAt })),
        cursor: p.cursor,
      };
    },
    // The month's counters: what its invoice priced.
    esperadas: (clienteId, mes) => somaDoServico(clienteId, mes),
  },
  entregasWebhook: {
    // The service's own log partitions, then each line's delivery by id: a delivery no longer in the
    // table is not written, and the table's count then tells.
    async ler(clienteId, mes, cursor, limite) {
      const p = await consumo.paginaDoLog(clienteId, mes, { cursor, limite, servico: SERVICO.envioFate });
      const cobradas = p.data.filter((r) => r.requestId.startsWith(PREFIXO_ENTREGA));
      const entregas = await entregasPorId(cobradas.map((r) => r.requestId.slice(PREFIXO_ENTREGA.length)));
      const linhas = cobradas.flatMap((r): Linha[] => {
        const e = entregas.get(r.requestId.slice(PREFIXO_ENTREGA.length));
        if (!e) return [];
        return [
          {
            delivery_id: e.deliveryId,
            operacao: e.operacao,
            chave: r.chave,
            uf: r.uf,
            criada_em: e.dataCriacao,
            cobrada_em: r.createdAt,
            situacao: e.situacao,
            tentativas: e.tentativas,
            ultima_tentativa: e.ultimaTentativa ?? null,
            ultimo_status: e.ultimoStatus ?? null,
            url: e.url,
            corpo: e.body,
          },
        ];
      });
      return { linhas, cursor: p.cursor };
    },
    esperadas: (clienteId, mes) => somaDoServico(clienteId, mes, SERVICO.envioFate),
  },
  debitosPrepagos: {
    async ler(clienteId, mes, cursor, limite) {
      const p = await debitos.paginaDeDebitosDoMes(clienteId, mes, { cursor, limite });
      return {
        linhas: p.data.map((d) => ({ chave: d.chave, servico: d.servico, resultado: d.resultado, valor_milesimos: d.valorMilesimos, criado_em: d.createdAt })),
        cursor: p.cursor,
      };
    },
    // The statement counts the uses the balance paid; an EXCEDENTE debit is billed on the invoice,
    // whose log the first table holds.
    esperadas: (clienteId, mes) => debitos.debitosPagosNoMes(clienteId, mes),
    contada: (l) => l.resultado === 'PREPAGO',
  },
  itensFatura: {
    async ler(clienteId, mes) {
      const f = await faturas.faturaDoMes(clienteId, mes);
      return { linhas: f ? linhasDaFatura(f) : [], cursor: null };
    },
    esperadas: async (clienteId, mes) => {
      const f = await faturas.faturaDoMes(clienteId, mes);
      return f ? Math.max(f.itens.length, 1) : 0;
    },
  },
};

/** The invoice as issued: a row per line, or one row without a service when it has only the minimum subscription. */
function linhasDaFatura(f: faturas.FaturaArquivada): Linha[] {
  const comum = {
    fatura_id: f.faturaId,
    revisao: f.revisao,
    emitida_em: f.emitidaEm,
    valor_servicos_centavos: f.valorServicos,
    valor_assinatura_centavos: f.valorAssinatura,
    valor_total_centavos: f.valorTotal,
  };
  if (f.itens.length === 0) return [{ ...comum, servico: null, descricao: null, uf: null, requisicoes: 0, valor_unitario_milesimos: 0, valor_centavos: 0 }];
  return f.itens.map((i) => ({
    ...comum,
    servico: i.servico,
    descricao: i.descricao,
    uf: i.uf,
    requisicoes: i.requisicoes,
    valor_unitario_milesimos: i.valorUnitario,
    valor_centavos: i.valor,
  }));
}
