import { precificar, UFS, type ClienteSituacao, type TabelaPreco } from '@plac/shared/domain';

/**
 * The billing run's pure rules (docs/faturamento.md): who gets an invoice, how a client's month
 * becomes one, and which shard of the run a client belongs to. No I/O, no clock.
 */

/** Clients per shard (one Map iteration of the state machine, one task Lambda invocation). */
export const CLIENTES_POR_SHARD = 100;
/** At most this many shards, so the List step's output stays far below Step Functions' 256 KiB. */
export const MAX_SHARDS = 200;

export function numeroDeShards(clientes: number): number {
  return Math.min(MAX_SHARDS, Math.max(1, Math.ceil(clientes / CLIENTES_POR_SHARD)));
}

/** FNV-1a (32 bits) of the client id, modulo the shards: a client's shard never depends on the others. */
export function shardDoCliente(clienteId: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < clienteId.length; i++) {
    hash ^= clienteId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % shards;
}

export type Decisao = 'faturar' | 'emAvaliacao' | 'semFatura';

/**
 * Whether a client is invoiced for the month: never while in evaluation (its look-ups are metered,
 * not billed); an active client always (the minimum subscription is due even without usage); any
 * other client only when it has usage in the month (it used the service, it pays for it).
 */
export function decidir(situacao: ClienteSituacao, requisicoes: number): Decisao {
  if (situacao === 'E') return 'emAvaliacao';
  if (situacao === 'A' || requisicoes > 0) return 'faturar';
  return 'semFatura';
}

export interface ItemFatura {
  servico: number;
  descricao: string;
  uf: string;
  requisicoes: number;
  valorUnitario: number;
  valor: number;
  faixaId?: string;
  promocional: boolean;
}

export interface Valores {
  itens: ItemFatura[];
  valorServicos: number;
  valorAssinatura: number;
  valorTotal: number;
  assinaturaMinima: number;
}

const ordemUf = new Map<string, number>(UFS.map((u, i) => [u.uf, i]));

/**
 * A client's month priced by the price rule (precificar) with the tariff version in force: one line
 * per service and UF with requests, in the catalogue's order of services and the UFs' order.
 */
export function valoresDaFatura(
  tabela: TabelaPreco,
  consumo: readonly { servico: number; uf: string; requisicoes: number }[],
  servicos: readonly { idModuloServico: number; descricao: string }[],
): Valores {
  const ordemServico = new Map(servicos.map((s, i) => [s.idModuloServico, i]));
  const linhas = consumo
    .filter((c) => c.requisicoes > 0)
    .map((c) => ({ servId: c.servico, uf: c.uf, quantidade: c.requisicoes }))
    .sort((a, b) => (ordemServico.get(a.servId) ?? 1e6) - (ordemServico.get(b.servId) ?? 1e6) || a.servId - b.servId || (ordemUf.get(a.uf) ?? 99) - (ordemUf.get(b.uf) ?? 99));
  const preco = precificar(tabela, linhas);
  const descricao = new Map(servicos.map((s) => [s.idModuloServico, s.descricao]));
  return {
    itens: preco.linhas.map((l) => ({
      servico: l.servId,
      descricao: descricao.get(l.servId) ?? `Serviço ${l.servId}`,
      uf: l.uf,
      requisicoes: l.quantidade,
      valorUnitario: l.valorUnitario,
      valor: l.valor,
      ...(l.faixaId ? { faixaId: l.faixaId } : {}),
      promocional: l.promocional,
    })),
    valorServicos: preco.valorServicos,
    valorAssinatura: preco.valorAssinatura,
    valorTotal: preco.total,
    assinaturaMinima: tabela.assinatura,
  };
}

const codigoUf = new Map<string, number>(UFS.map((u) => [u.uf, u.codigo]));

/** An invoice line as the API shows it (spec 2, 2.10): the UF as its IBGE code and its initials. */
export function itemDaFatura(i: Pick<ItemFatura, 'servico' | 'descricao' | 'uf' | 'requisicoes' | 'valorUnitario' | 'valor'>) {
  return {
    idModuloServico: i.servico,
    descricao: i.descricao,
    uf: codigoUf.get(i.uf) ?? 0,
    sgUf: i.uf,
    requisicoes: i.requisicoes,
    valorUnitario: i.valorUnitario,
    valorConsumo: i.valor,
  };
}

/** The invoice's key: one per client and month, whatever run writes it. */
export function faturaIdDe(clienteId: string, mes: string): string {
  return `${mes.replace('-', '')}-${clienteId}`;
}
