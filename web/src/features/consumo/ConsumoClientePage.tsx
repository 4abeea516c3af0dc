import '../../components/page-layout.css';
import { SearchPanel } from '../../components/listing';
import { ListPage } from '../../components/ListPage';
import './consumo.css';
import { keepPreviousData } from '@tanstack/react-query';
import { consumo, servicos } from '@plac/shared/contracts';
import { CLIENTE_SITUACOES, formatCnpj, formatDate, formatMonth } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable, type DataTableExpandedRows } from 'primereact/datatable';
import { Dropdown } from 'primereact/dropdown';
import { useMemo, useState } from 'react';
import { ConfirmSimNao } from '../../components/ConfirmSimNao';
import { useApiQuery } from '../../lib/api';
import { useListSearch } from '../../components/list-search';
import { nomeDoClienteDoUsuario, useCurrentUser, useSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import { formatCount, type ConsumoCliente } from './model';
import { gerarRelatorio } from '../../lib/relatorio';
import { useOpcoesDeClientes } from '../../lib/opcoes-clientes';
import { ClienteFilter } from '../../components/ClienteFilter';

/**
 * consumo-cliente (sefaz_admin, cliente): the current month's consumption, one row per client with its
 * requests, expanding into the summaries by service and UF and by service. The administrator picks a
 * client (none: every client with consumption) and a service; a client user sees its own client only.
 * 'Relatório de consumo' asks for confirmation, then the server builds the CSV while the banner counts
 * the time.
 */

const TODOS = '*';

interface Filtro {
  cliente: string;
  servico: string;
}

const situacaoLabel = (s: string) => (CLIENTE_SITUACOES as Record<string, string>)[s] ?? s;

/**
 * A row opened: its summaries. The list of every client answers each row's month by service; the one by
 * service and UF is asked for when the row opens (one client's counters), with the same filters.
 */
function Resumos({ linha, query }: { linha: ConsumoCliente; query: { idModuloServico?: number } }) {
  const nome = linha.cliente.razaoSocial;
  const doCliente = useApiQuery(consumo.consumoPorCliente, { query: { ...query, idCliente: linha.cliente.id } }, { enabled: linha.porServicoUf === undefined });
  const porServicoUf = linha.porServicoUf ?? doCliente.data?.clientes[0]?.porServicoUf;
  return (
    <div className="consumo-resumos">
      <section aria-label={`Resumo por serviço e UF: ${nome}`}>
        <h3>Resumo por serviço e UF</h3>
        <DataTable
          value={porServicoUf ?? []}
          dataKey="uf"
          size="small"
          stripedRows
          loading={porServicoUf === undefined && doCliente.isFetching}
          emptyMessage={doCliente.isError ? message('servicoIndisponivel') : porServicoUf === undefined ? ' ' : message('nenhumRegistro')}
        >
          <Column field="servico" header="Serviço" />
          <Column field="uf" header="UF" />
          <Column header="Requisições" body={(r: NonNullable<ConsumoCliente['porServicoUf']>[number]) => formatCount(r.requisicoes)} />
        </DataTable>
      </section>
      <section aria-label={`Resumo por serviço: ${nome}`}>
        <h3>Resumo por serviço</h3>
        <DataTable value={linha.porServico} dataKey="idModuloServico" size="small" stripedRows emptyMessage={message('nenhumRegistro')}>
          <Column field="servico" header="Serviço" />
          <Column header="Requisições" body={(r: ConsumoCliente['porServico'][number]) => formatCount(r.requisicoes)} />
        </DataTable>
      </section>
    </div>
  );
}

export default function ConsumoClientePage() {
  const user = useCurrentUser();
  const { reportProcessing } = useSession();
  const admin = user.roles.includes('sefaz_admin');
  const listSearch = useListSearch<Filtro, Filtro>({
    empty: { cliente: admin ? TODOS : (user.clienteId ?? ''), servico: TODOS },
    toSearch: (f) => f,
    // Every client's (or the own client's) consumption on arrival.
    first: (f) => f,
    // Every client's consumption is paged on the server (by cursor, in name order); one client is one row.
    perPage: 10,
  });
  const { draft: filtro, set, pages, page, onSubmit } = listSearch;
  // Never idle (searched on arrival, no Limpar).
  const busca = listSearch.search ?? filtro;
  const [expandidas, setExpandidas] = useState<DataTableExpandedRows>({});
  const [confirmar, setConfirmar] = useState<{ id: string; razaoSocial: string } | null>(null);

  const { consulta: listaClientes, opcoes: opcoesDeClientes } = useOpcoesDeClientes(admin, 'id');
  const listaServicos = useApiQuery(servicos.listServicos, {});
  const doServico = busca.servico !== TODOS ? { idModuloServico: Number(busca.servico) } : {};
  const filtroCliente = admin && busca.cliente !== TODOS ? { idCliente: busca.cliente } : {};
  const query = { ...filtroCliente, ...doServico, ...page };
  const lista = useApiQuery(consumo.consumoPorCliente, { query }, { placeholderData: keepPreviousData });
  const linhas = useMemo(() => lista.data?.clientes ?? [], [lista.data]);

  // A client user's own client is named from the list; the administrator's options do not change with
  // the list's answers.
  const own = admin ? undefined : linhas.find((l) => l.cliente.id === user.clienteId)?.cliente;
  const clienteOptions = useMemo(() => {
    if (!admin) {
      // Never the bare id while the list loads: the company's name kept since login (issue 28).
      return [{ value: user.clienteId ?? '', label: own ? `${own.razaoSocial} - ${formatCnpj(own.cnpj)}` : nomeDoClienteDoUsuario(user) }];
    }
    return [{ value: TODOS, label: 'Todos' }, ...opcoesDeClientes];
  }, [admin, own, opcoesDeClientes, user]);
  const servicoOptions = useMemo(
    () => [{ value: TODOS, label: 'Todos' }, ...(listaServicos.data ?? []).map((s) => ({ value: String(s.idModuloServico), label: s.descricaoModuloServico }))],
    [listaServicos.data],
  );

  /** The report is of one client: the one picked (admin), the own (client user). */
  function pedirRelatorio() {
    const id = admin ? (filtro.cliente === TODOS ? null : filtro.cliente) : (user.clienteId ?? null);
    if (!id) {
      toast.warn(message('clientePlacObrigatorio'));
      return;
    }
    const daLista = linhas.find((l) => l.cliente.id === id)?.cliente.razaoSocial;
    const doSeletor = listaClientes.data?.find((c) => c.id === id)?.razao_social;
    setConfirmar({ id, razaoSocial: daLista ?? doSeletor ?? id });
  }

  function confirmarRelatorio(cliente: { id: string; razaoSocial: string }) {
    setConfirmar(null);
    void gerarRelatorio(cliente, filtro.servico === TODOS ? undefined : Number(filtro.servico));
  }

  // The panel is the same element until its own values change: the list's answers do not render it again.
  const pesquisar = onSubmit(lista);
  const filters = useMemo(() => (
    <SearchPanel label="Filtros de consumo por cliente" onSubmit={pesquisar}>
      <ClienteFilter id="filtro-cliente" options={clienteOptions} value={filtro.cliente} onChange={(v) => set('cliente', v ?? TODOS)} admin={admin} />
      <div className="page-field">
        <label htmlFor="filtro-servico">Serviço</label>
        <Dropdown
          inputId="filtro-servico"
          options={servicoOptions}
          value={filtro.servico}
          onChange={(e) => set('servico', (e.value as string | undefined) ?? TODOS)}
        />
      </div>
    </SearchPanel>
  ), [pesquisar, clienteOptions, filtro, set, admin, servicoOptions]);

  return (
    <>
      <ListPage
        title="Consumo por Cliente"
        headerActions={<Button type="button" label="Relatório de consumo" icon="pi pi-file-export" onClick={pedirRelatorio} disabled={reportProcessing !== null} />}
        filters={filters}
        before={<p className="page-hint">Consumo do mês {lista.data ? formatMonth(lista.data.mes) : ''}</p>}
        label="Consumo por cliente"
        rows={linhas}
        dataKey="cliente.id"
        query={lista}
        paging={{ kind: 'cursor', pages, nextCursor: lista.data?.nextCursor, label: 'Paginação do consumo por cliente', sizes: [10, 25, 50] }}
        table={{ expandedRows: expandidas, onRowToggle: (e) => setExpandidas(e.data as DataTableExpandedRows), rowExpansionTemplate: (l: ConsumoCliente) => <Resumos linha={l} query={doServico} /> }}
      >
        <Column expander={() => true} style={{ width: '4rem' }} header={<span className="consumo-sr-only">Detalhar</span>} />
        <Column header="Razão Social" body={(l: ConsumoCliente) => l.cliente.razaoSocial} />
        <Column header="CNPJ" body={(l: ConsumoCliente) => formatCnpj(l.cliente.cnpj)} />
        <Column header="Tipo" body={(l: ConsumoCliente) => l.cliente.tipo} />
        <Column header="Situação" body={(l: ConsumoCliente) => situacaoLabel(l.cliente.situacao)} />
        <Column header="Data de cadastro" body={(l: ConsumoCliente) => formatDate(l.cliente.createdAt)} />
        <Column header="Requisições" body={(l: ConsumoCliente) => formatCount(l.total)} />
      </ListPage>

      <ConfirmSimNao target={confirmar} message={message('relatorioConsumoConfirmacao')} onConfirm={confirmarRelatorio} onClose={() => setConfirmar(null)} />
    </>
  );
}
