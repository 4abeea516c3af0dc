import '../../components/page-layout.css';
import { SearchPanel } from '../../components/listing';
import { combineQueries, ListPage, moneyColumn } from '../../components/ListPage';
import { keepPreviousData } from '@tanstack/react-query';
import { prepago } from '@plac/shared/contracts';
import { formatCnpj } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { Dropdown } from 'primereact/dropdown';
import { useMemo } from 'react';
import { useApiMutation, useApiQuery } from '../../lib/api';
import { useListSearch } from '../../components/list-search';
import { abrirDae } from '../../lib/download';
import { mesIso } from '../../lib/calendar';
import { toast } from '../../lib/toast';
import { EscrituradorSelect, useEscrituradores } from './escriturador';
import { PeriodoFilter } from '../../components/PeriodoFilter';

/**
 * imprimir-dae (sefaz_admin, cliente_imf; spec 3 sections 2.9, 3.12, 9): the reservations' DAEs by
 * bookkeeper (the administrator may leave it empty for all; a client user's own is fixed), reference
 * months (MM/YYYY, none after today) and status; table of client, CNPJ, reference, status, total and
 * the print action (an open DAE past due is issued again with a new due date by the server). 25 a page
 * (10/25/50/100), paged on the server by cursor. The filter is kept in the session.
 */

type Item = (typeof prepago.listarDaesPrepagos)['response']['_zod']['output']['items'][number];
type Situacao = 'A' | 'P';

const SITUACOES: { value: Situacao; label: string }[] = [
  { value: 'A', label: 'Em aberto' },
  { value: 'P', label: 'Pago' },
];

interface Filtro {
  cnpj: string;
  mesInicio: Date | null;
  mesFim: Date | null;
  situacao: Situacao | null;
}

const mesDe = (iso: unknown): Date | null => {
  if (typeof iso !== 'string' || !/^\d{4}-\d{2}$/.test(iso)) return null;
  const [ano, mes] = iso.split('-').map(Number) as [number, number];
  return new Date(ano, mes - 1, 1);
};

const VAZIO: Filtro = { cnpj: '', mesInicio: null, mesFim: null, situacao: null };

/** No bookkeepers yet: one array for every render (the filter panel is kept while their list loads). */
const SEM_ESCRITURADORES: readonly { cnpj: string; razaoSocial: string }[] = [];

/** Pesquisar's check: the first month not after the last. */
function validar(filtro: Filtro): Filtro | null {
  if (filtro.mesInicio && filtro.mesFim && filtro.mesInicio > filtro.mesFim) {
    toast.warn(message('dataInicioMaiorDataFim'));
    return null;
  }
  return filtro;
}

export default function ImprimirDaePage() {
  const { admin, escrituradores, carregando, consulta: escrituradoresConsulta } = useEscrituradores();
  const listSearch = useListSearch<Filtro, Filtro>({
    empty: VAZIO,
    toSearch: validar,
    // The saved filter's DAEs on arrival.
    first: (filtro) => filtro,
    perPage: 25,
    saved: {
      name: 'daePrepago',
      // The session's filter, field by field; anything malformed falls back to empty.
      read: (s) => ({
        cnpj: typeof s.cnpj === 'string' ? s.cnpj : '',
        mesInicio: mesDe(s.mesInicio),
        mesFim: mesDe(s.mesFim),
        situacao: SITUACOES.find((o) => o.value === s.situacao)?.value ?? null,
      }),
      write: (f) => ({
        cnpj: admin ? f.cnpj : '',
        mesInicio: f.mesInicio ? mesIso(f.mesInicio) : null,
        mesFim: f.mesFim ? mesIso(f.mesFim) : null,
        situacao: f.situacao,
      }),
    },
  });
  const { draft: filtro, set, pages, page, onSubmit } = listSearch;
  // Never idle (the saved filter is searched on arrival and there is no Limpar).
  const busca = listSearch.search ?? VAZIO;
  const cnpj = admin ? busca.cnpj : (escrituradores[0]?.cnpj ?? '');

  const lista = useApiQuery(
    prepago.listarDaesPrepagos,
    {
      query: {
        ...(cnpj ? { cnpj } : {}),
        ...(busca.mesInicio ? { dataInicio: mesIso(busca.mesInicio) } : {}),
        ...(busca.mesFim ? { dataFim: mesIso(busca.mesFim) } : {}),
        ...(busca.situacao ? { situacao: busca.situacao } : {}),
        ...page,
      },
    },
    { enabled: admin || cnpj !== '', placeholderData: keepPreviousData },
  );
  const imprimir = useApiMutation(prepago.imprimirDaePrepago, {
    onSuccess: (r) => {
      abrirDae(r.urlDAE);
      void lista.refetch();
    },
  });

  const referencia = (i: Item) => `${String(i.dae.mes).padStart(2, '0')}/${i.dae.ano}`;

  // The panel is the same element until its own values change: the list's answers do not render it again.
  const pesquisar = onSubmit(lista);
  const opcoesEscrituradores = escrituradoresConsulta.data ?? SEM_ESCRITURADORES;
  const filters = useMemo(() => (
    <SearchPanel label="Filtros de DAE" onSubmit={pesquisar}>
      <div className="page-field">
        <label htmlFor="dae-escriturador">Escriturador</label>
        <EscrituradorSelect id="dae-escriturador" value={admin ? filtro.cnpj : cnpj} onChange={(v) => set('cnpj', v)} admin={admin} escrituradores={opcoesEscrituradores} carregando={carregando} />
      </div>
      <PeriodoFilter id="dae-mes" inicio={filtro.mesInicio} fim={filtro.mesFim} onInicio={(m) => set('mesInicio', m)} onFim={(m) => set('mesFim', m)} ate={new Date()} limpavel />
      <div className="page-field">
        <label htmlFor="dae-situacao">Situação</label>
        <Dropdown inputId="dae-situacao" options={SITUACOES} value={filtro.situacao} onChange={(e) => set('situacao', (e.value as Situacao | undefined) ?? null)} placeholder="Todas" showClear />
      </div>
    </SearchPanel>
  ), [pesquisar, admin, filtro, cnpj, set, opcoesEscrituradores, carregando]);

  return (
    <>
      <ListPage
        title="Imprimir DAE"
        filters={filters}
        label="DAEs de pagamento antecipado"
        rows={lista.data?.items}
        dataKey="dae.id"
        // A client's list waits for its own company (the bookkeepers' answer): that request's failure is the list's.
        query={combineQueries(!admin && escrituradoresConsulta, lista)}
        paging={{ kind: 'cursor', pages, nextCursor: lista.data?.nextCursor, label: 'Paginação de DAEs' }}
      >
        <Column header="Cliente" body={(i: Item) => i.pagamentoAntecipado.razaoSocial} />
        <Column header="CNPJ" body={(i: Item) => formatCnpj(i.pagamentoAntecipado.cnpjEscriturador)} bodyClassName="list-nowrap" />
        <Column header="Referência" body={referencia} />
        <Column header="Situação" body={(i: Item) => SITUACOES.find((s) => s.value === i.dae.situacao)?.label} />
        <Column header="Total" {...moneyColumn((i: Item) => i.dae.valor)} />
        <Column
          header="Imprimir"
          body={(i: Item) => (
            <Button
              type="button"
              icon="pi pi-print"
              rounded
              text
              aria-label={`Imprimir DAE ${referencia(i)} de ${i.pagamentoAntecipado.razaoSocial}`}
              disabled={imprimir.isPending}
              onClick={() => imprimir.mutate({ params: { id: i.dae.id } })}
            />
          )}
        />
      </ListPage>
    </>
  );
}
