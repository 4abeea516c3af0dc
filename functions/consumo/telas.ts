import { isAdmin, type Principal } from '@plac/shared/access';
import {
  addDays,
  daysBetween,
  MONITORAMENTO_CONSUMO_MESES,
  monthOf,
  NAO_ENCONTRADAS_MAXIMO_DIAS,
  nextMonth,
  previousMonth,
  statusNaoEncontradaLabel,
  STATUS_NAO_ENCONTRADA,
  STATUS_NAO_ENCONTRADA_LABELS,
  porCodigo,
} from '@plac/shared/domain';
import * as clientes from '../clientes';
import { clienteDoFiltro } from '../platform/escopo';
import { forbidden, HttpError, invalid, notFound } from '../platform/errors';
import { logger } from '../platform/observability';
import { paginaComCursor, vinculoDoCursor } from '../platform/paginas';
import * as servicos from '../servicos';
import * as store from './store';

/**
 * What the consumption screens read (consumo-cliente, consumo-uf, consumo-erro-uf and the not-found
 * query, monitoramento-consumo-cliente), with their object-level rules: a client user reaches only its
 * own client (403 clienteNaoPermitido), a Sefaz manager only its own UF (403 acessoNegado).
 */

/** The UF the caller may see: any for an administrator, the own for a manager. */
export function ufDoFiltro(principal: Principal, pedida: string): string {
  if (isAdmin(principal)) return pedida;
  if (!principal.uf || pedida !== principal.uf) throw forbidden();
  return pedida;
}

/** Service id → description, from the servicos context (inactive services included: they were charged). */
async function descricoes(): Promise<(id: number) => string> {
  const todos = new Map((await servicos.todos()).map((s) => [s.idModuloServico, s.descricao]));
  return (id) => todos.get(id) ?? `Serviço ${id}`;
}

const mesAtual = () => monthOf(new Date());

// ---- consumption by client ------------------------------------------------------------------------

type Contador = { servico: number; uf: string; requisicoes: number };

function resumir(contadores: Contador[], descricao: (id: number) => string) {
  const porServico = new Map<number, number>();
  for (const c of contadores) porServico.set(c.servico, (porServico.get(c.servico) ?? 0) + c.requisicoes);
  return {
    total: contadores.reduce((sum, c) => sum + c.requisicoes, 0),
    porServico: [...porServico]
      .sort(([a], [b]) => a - b)
      .map(([id, requisicoes]) => ({ idModuloServico: id, servico: descricao(id), requisicoes })),
    porServicoUf: [...contadores]
      .sort((a, b) => a.servico - b.servico || porCodigo(a.uf, b.uf))
      .map((c) => ({ idModuloServico: c.servico, servico: descricao(c.servico), uf: c.uf, requisicoes: c.requisicoes })),
  };
}

/** The client as the table shows it; null when it no longer exists (its charges stay counted). */
async function clienteDaTabela(principal: Principal, clienteId: string) {
  try {
    const c = await clientes.clienteDoChamador(principal, clienteId);
    return { id: c.id, razaoSocial: c.razao_social, cnpj: c.cnpj, tipo: c.tipo_cliente, situacao: c.situacao, createdAt: c.created_at };
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return null;
    throw error;
  }
}

export async function consumoPorCliente(
  principal: Principal,
  filtro: { idCliente?: string | undefined; idModuloServico?: number | undefined; mes?: string | undefined; cursor?: string | undefined; perPage: number },
) {
  const mes = filtro.mes ?? mesAtual();
  const clienteId = clienteDoFiltro(principal, filtro.idCliente);
  const doServico = <T extends { servico: number }>(items: T[]) =>
    filtro.idModuloServico === undefined ? items : items.filter((c) => c.servico === filtro.idModuloServico);
  const descricao = await descricoes();

  if (clienteId) {
    const cliente = await clienteDaTabela(principal, clienteId);
    if (!cliente) throw notFound();
    const contadores = doServico(await store.contadoresDoCliente(clienteId, mes));
    return { mes, clientes: [{ cliente, ...resumir(contadores, descricao) }] };
  }

  // Every client with consumption in the month, a page at a time in name order (store.ts
  // `clientesDoMes`), each with its month by service (`consumoPorServicoDosClientes`: its services'
  // shards by key), never the month's counters by UF: what a page reads does not grow with the
  // clients or their requests.
  const { idModuloServico } = filtro;
  const vinculo = vinculoDoCursor(principal, 'consumo.clientes', { mes, idModuloServico, perPage: filtro.perPage });
  const pagina = await paginaComCursor(vinculo, filtro.cursor, (posicao) => store.clientesDoMes(mes, { perPage: filtro.perPage, posicao, servico: idModuloServico }));
  const porServicoDe = await store.consumoPorServicoDosClientes(pagina.items);
  const linhas = await Promise.all(
    pagina.items.map(async ({ clienteId: id }) => {
      const cliente = await clienteDaTabela(principal, id);
      if (!cliente) logger.warn('consumption of a client that does not exist', { clienteId: id, mes });
      const doFiltro = doServico(porServicoDe.get(id) ?? []);
      if (!cliente || doFiltro.length === 0) return null;
      return {
        cliente,
        total: doFiltro.reduce((sum, s) => sum + s.requisicoes, 0),
        porServico: doFiltro.map((s) => ({ idModuloServico: s.servico, servico: descricao(s.servico), requisicoes: s.requisicoes })),
      };
    }),
  );
  return { mes, clientes: linhas.filter((l) => l !== null), ...(pagina.nextCursor ? { nextCursor: pagina.nextCursor } : {}) };
}

// ---- consumption by UF ----------------------------------------------------------------------------

export async function consumoPorUf(principal: Principal, filtro: { uf: string; idModuloServico: number; mes?: string | undefined }) {
  const uf = ufDoFiltro(principal, filtro.uf);
  const mes = filtro.mes ?? mesAtual();
  const requisicoes = (await store.contadoresDaUf(uf, mes))
    .filter((c) => c.servico === filtro.idModuloServico)
    .reduce((sum, c) => sum + c.requisicoes, 0);
  const descricao = await descricoes();
  return {
    mes,
    itens: requisicoes === 0 ? [] : [{ uf, idModuloServico: filtro.idModuloServico, servico: descricao(filtro.idModuloServico), requisicoes }],
  };
}

// ---- not-found look-ups ---------------------------------------------------------------------------

export function statusNaoEncontradas() {
  return STATUS_NAO_ENCONTRADA.map((value) => ({ value, label: STATUS_NAO_ENCONTRADA_LABELS[value] }));
}

/** The start and the end of a Bahia calendar day (UTC-3, no daylight saving since 2012), as ISO instants. */
const inicioDoDia = (dia: string) => new Date(`${dia}T00:00:00-03:00`).toISOString();
const fimDoDia = (dia: string) => new Date(Date.parse(`${dia}T00:00:00-03:00`) + 86_400_000 - 1).toISOString();

/** The business months from one day's month to another's, in order. */
function mesesEntre(de: string, ate: string): string[] {
  const meses = [monthOf(de)];
  while (meses[meses.length - 1]! < monthOf(ate)) meses.push(nextMonth(meses[meses.length - 1]!));
  return meses;
}

export async function naoEncontradas(
  principal: Principal,
  filtro: {
    uf: string;
    dataInicio: string;
    dataFim: string;
    chnfe?: string | undefined;
    status?: string | undefined;
    cursor?: string | undefined;
    perPage: number;
  },
) {
  const span = daysBetween(filtro.dataInicio, filtro.dataFim);
  if (span < 0) throw invalid('dataInicioMaiorDataFim');
  if (span > NAO_ENCONTRADAS_MAXIMO_DIAS) throw invalid('faixaDataInvalida');
  const uf = ufDoFiltro(principal, filtro.uf);
  const [de, ate] = [inicioDoDia(filtro.dataInicio), fimDoDia(filtro.dataFim)];
  // At most 90 days: four months at most, newest first, each a key range of the UF's month.
  const meses = mesesEntre(filtro.dataInicio, filtro.dataFim).reverse();
  const { chnfe, status } = filtro;
  const aceita = chnfe || status ? (n: store.NaoEncontradaRecord) => (!chnfe || n.chnfe.includes(chnfe)) && (!status || n.status === status) : undefined;
  const vinculo = vinculoDoCursor(principal, 'consumo.naoEncontradas', { uf, de, ate, chnfe, status, perPage: filtro.perPage });
  const pagina = await paginaComCursor(vinculo, filtro.cursor, (posicao) => store.naoEncontradasDaUfEntre(uf, meses, de, ate, { perPage: filtro.perPage, posicao, aceita }));
  const descricao = await descricoes();
  return {
    ...pagina,
    items: pagina.items.map((n) => ({
      id: n.id,
      uf: n.uf,
      data: n.data,
      chnfe: n.chnfe,
      idModuloServico: n.servico,
      servico: descricao(n.servico),
      status: n.status,
      statusDescricao: statusNaoEncontradaLabel(n.status),
      cnpj: n.cnpj,
      razao_social: n.razaoSocial,
    })),
  };
}

// ---- consumption monitoring -----------------------------------------------------------------------

function mesesDe(inicio: string, fim: string): string[] {
  const meses = [inicio];
  while (meses[meses.length - 1]! < fim) meses.push(nextMonth(meses[meses.length - 1]!));
  return meses;
}

export async function monitoramento(
  principal: Principal,
  filtro: {
    idCliente?: string | undefined;
    modo: 'mes' | 'dia';
    mesInicio?: string | undefined;
    mesFim?: string | undefined;
    mes?: string | undefined;
  },
) {
  const clienteId = clienteDoFiltro(principal, filtro.idCliente);
  if (!clienteId) throw invalid('clientePlacObrigatorio');
  const cliente = await clientes.clienteResumo(clienteId);
  if (!cliente) throw notFound();
  const resumo = { id: cliente.id, razaoSocial: cliente.razao_social };

  if (filtro.modo === 'dia') {
    const mes = filtro.mes ?? mesAtual();
    const primeiro = `${mes}-01`;
    const dias: string[] = [];
    for (let d = primeiro; d.startsWith(mes); d = addDays(d, 1)) dias.push(d);
    // The daily counters kept as requests are metered (store.ts, `diario`): never the request log.
    const porDia = await store.contadoresDiarios(clienteId, mes);
    return { cliente: resumo, pontos: dias, sucesso: dias.map((d) => porDia.get(d)?.sucesso ?? 0), erro: dias.map((d) => porDia.get(d)?.erro ?? 0) };
  }

  const fim = filtro.mesFim ?? mesAtual();
  let inicio = filtro.mesInicio;
  if (!inicio) {
    inicio = fim;
    for (let i = 1; i < MONITORAMENTO_CONSUMO_MESES; i++) inicio = previousMonth(inicio);
  }
  if (inicio > fim) throw invalid('dataInicioMaiorDataFim');
  const meses = mesesDe(inicio, fim);
  if (meses.length > MONITORAMENTO_CONSUMO_MESES) throw invalid('periodoMaximoDozeMeses');
  const porMes = await Promise.all(
    meses.map(async (mes) => {
      // The month's not-found look-ups from the daily counters (never the log): the day mode's figures added up.
      const [contadores, porDia] = await Promise.all([store.contadoresDoCliente(clienteId, mes), store.contadoresDiarios(clienteId, mes)]);
      return { sucesso: contadores.reduce((sum, c) => sum + c.requisicoes, 0), erro: [...porDia.values()].reduce((sum, d) => sum + d.erro, 0) };
    }),
  );
  return { cliente: resumo, pontos: meses, sucesso: porMes.map((m) => m.sucesso), erro: porMes.map((m) => m.erro) };
}
