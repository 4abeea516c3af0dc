import '../../components/page-layout.css';
import { SearchPanel } from '../../components/listing';
import { IDLE_QUERY, ListPage } from '../../components/ListPage';
import './consumo.css';
import { keepPreviousData } from '@tanstack/react-query';
import { consumo } from '@plac/shared/contracts';
import { formatCnpj, formatDateTime, NAO_ENCONTRADAS_MAXIMO_DIAS } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { Calendar } from 'primereact/calendar';
import { Column } from 'primereact/column';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { useCallback, useMemo, useState } from 'react';
import { FieldError } from '../../components/FieldError';
import { UfFilter } from '../../components/UfFilter';
import { useApiQuery } from '../../lib/api';
import { useListSearch } from '../../components/list-search';
import { useCurrentUser } from '../../lib/session';
import { toast } from '../../lib/toast';
import { diaBr, diasEntre, hojeMais, type NaoEncontrada } from './model';

/**
 * consumo-erro-uf (sefaz_admin, sefaz_gestor): the query of invoices not found, the look-ups that
 * found nothing, by state, period (at most 90 days; the last 30 when the page opens), access key and
 * status, newest first, 15 a page (paged on the server by cursor: Anterior / Próxima). A manager has the own UF fixed and the search runs at once.
 */

/** The not-found query's own default page size (spec 2, 2.8 and 9); the options are the lists'. */
export const TAMANHO_PADRAO = 15;
const TAMANHOS = [10, 15, 25, 50, 100] as const;
const TODOS = '*';

interface Filtro {
  uf: string;
  inicio: Date | null;
  fim: Date | null;
  chnfe: string;
  status: string;
}

interface Busca {
  uf: string;
  dataInicio: string;
  dataFim: string;
  chnfe?: string;
  status?: 'NAO_ENCONTRADA' | 'CHAVE_INVALIDA';
}

interface Erros {
  uf?: string;
  inicio?: string;
  fim?: string;
}

const describedBy = (id: string) => ({ input: { root: { 'aria-describedby': `${id}-error` } } });

export default function ConsumoErroUfPage() {
  const user = useCurrentUser();
  const gestor = !user.roles.includes('sefaz_admin');
  const ufFixa = gestor ? (user.uf ?? '') : null;
  const [erros, setErros] = useState<Erros>({});

  /** The filter's search (the UF: a manager's own). */
  const buscaDe = (f: Filtro & { inicio: Date; fim: Date }): Busca => {
    const chnfe = f.chnfe.replace(/\D/g, '');
    return {
      uf: ufFixa ?? f.uf,
      dataInicio: diaBr(f.inicio),
      dataFim: diaBr(f.fim),
      ...(chnfe ? { chnfe } : {}),
      ...(f.status !== TODOS ? { status: f.status as Busca['status'] } : {}),
    };
  };

  /** Pesquisar's checks: UF and both dates required (beside each field), a period of at most 90 days. */
  function validar(filtro: Filtro): Busca | null {
    const novos: Erros = {};
    if (!(ufFixa ?? filtro.uf)) novos.uf = message('campoObrigatorio', { field: 'UF' });
    if (!filtro.inicio) novos.inicio = message('dataInicioObrigatoria');
    if (!filtro.fim) novos.fim = message('dataFimObrigatoria');
    setErros(novos);
    let periodo: string | null = null;
    if (filtro.inicio && filtro.fim) {
      const dias = diasEntre(filtro.inicio, filtro.fim);
      if (dias < 0) periodo = message('dataInicioMaiorDataFim');
      else if (dias > NAO_ENCONTRADAS_MAXIMO_DIAS) periodo = message('faixaDataInvalida');
    }
    const problemas = [novos.uf, novos.inicio, novos.fim, periodo].filter((m): m is string => Boolean(m));
    if (problemas.length > 0 || !filtro.inicio || !filtro.fim) {
      for (const m of problemas) toast.warn(m);
      return null;
    }
    return buscaDe({ ...filtro, inicio: filtro.inicio, fim: filtro.fim });
  }

  const { draft: filtro, set, search: busca, pages, page, onSubmit } = useListSearch<Filtro, Busca>({
    empty: () => ({ uf: ufFixa ?? '', inicio: hojeMais(-29), fim: hojeMais(0), chnfe: '', status: TODOS }),
    toSearch: validar,
    // A manager's search runs at once (the last 30 days); an administrator picks the UF first.
    first: (f) => (ufFixa && f.inicio && f.fim ? buscaDe({ ...f, inicio: f.inicio, fim: f.fim }) : null),
    perPage: TAMANHO_PADRAO,
  });

  const statusList = useApiQuery(consumo.statusNaoEncontradas, {});
  const statusOptions = useMemo(() => [{ value: TODOS, label: 'Todos' }, ...(statusList.data ?? [])], [statusList.data]);
  const consulta = busca ? { ...busca, ...page } : { uf: '', dataInicio: '', dataFim: '' };
  const lista = useApiQuery(consumo.naoEncontradas, { query: consulta }, {
    enabled: busca !== null,
    placeholderData: keepPreviousData,
  });
  const items = busca ? (lista.data?.items ?? []) : [];

  const dateField = useCallback((id: string, key: 'inicio' | 'fim', label: string, field: string) => (
    <div className="page-field">
      <label htmlFor={id}>{label}</label>
      <Calendar
        inputId={id}
        value={filtro[key]}
        onChange={(e) => set(key, e.value instanceof Date ? e.value : null)}
        dateFormat="dd/mm/yy"
        maxDate={hojeMais(0)}
        showIcon
        showButtonBar
        tooltip={message('faixaDataInvalida')}
        tooltipOptions={{ position: 'top' }}
        invalid={Boolean(erros[key])}
        pt={describedBy(id)}
      />
      <FieldError error={lista.error} field={field} id={`${id}-error`} messages={erros[key] ? [erros[key]] : []} />
    </div>
  ), [filtro, set, erros, lista.error]);

  // The panel is the same element until its own values change: the list's answers do not render it again.
  const pesquisar = onSubmit(lista);
  const filters = useMemo(() => (
    <SearchPanel label="Filtros de faturas não encontradas" onSubmit={pesquisar}>
      <UfFilter label="UF" value={filtro.uf} fixa={ufFixa} onChange={(uf) => set('uf', uf)} erro={erros.uf} error={lista.error} />
      {dateField('filtro-data-inicio', 'inicio', 'Data Início', 'dataInicio')}
      {dateField('filtro-data-fim', 'fim', 'Data Fim', 'dataFim')}
      <div className="page-field">
        <label htmlFor="filtro-chnfe">Chave de acesso</label>
        <InputText id="filtro-chnfe" value={filtro.chnfe} onChange={(e) => set('chnfe', e.target.value)} maxLength={44} inputMode="numeric" />
        <FieldError error={lista.error} field="chnfe" />
      </div>
      <div className="page-field">
        <label htmlFor="filtro-status">Status</label>
        <Dropdown inputId="filtro-status" options={statusOptions} value={filtro.status} onChange={(e) => set('status', (e.value as string | undefined) ?? TODOS)} />
      </div>
    </SearchPanel>
  ), [pesquisar, filtro.uf, filtro.chnfe, filtro.status, ufFixa, set, erros.uf, lista.error, dateField, statusOptions]);

  return (
    <>
      <ListPage
        title="Fat-e não Encontradas por UF"
        filters={filters}
        label="Faturas não encontradas"
        rows={items}
        dataKey="id"
        query={busca ? lista : IDLE_QUERY}
        paging={{ kind: 'cursor', pages, nextCursor: busca ? lista.data?.nextCursor : undefined, sizes: TAMANHOS, label: 'Paginação de faturas não encontradas' }}
      >
        <Column field="uf" header="UF" />
        <Column header="Data" body={(n: NaoEncontrada) => formatDateTime(n.data)} />
        <Column field="chnfe" header="Chave de acesso" bodyClassName="consumo-chave" />
        <Column field="servico" header="Serviço" />
        <Column field="statusDescricao" header="Status" />
        <Column header="CNPJ" body={(n: NaoEncontrada) => formatCnpj(n.cnpj)} />
        <Column field="razao_social" header="Razão Social" bodyClassName="consumo-quebra" />
      </ListPage>
    </>
  );
}
