import '../../components/page-layout.css';
import { DEFAULT_PAGE_SIZE, SearchPanel } from '../../components/listing';
import { useListSearch } from '../../components/list-search';
import { combineQueries, ListPage } from '../../components/ListPage';
import './consumo.css';
import { consumo, servicos } from '@plac/shared/contracts';
import { formatMonth } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { Column } from 'primereact/column';
import { Dropdown } from 'primereact/dropdown';
import { useCallback, useMemo, useState } from 'react';
import { FieldError } from '../../components/FieldError';
import { RequiredMark } from '../../components/RequiredMark';
import { UfFilter } from '../../components/UfFilter';
import { useApiQuery } from '../../lib/api';
import { useCurrentUser } from '../../lib/session';
import { toast } from '../../lib/toast';
import { formatCount } from './model';

/**
 * consumo-uf (sefaz_admin, sefaz_gestor): the current month's requests of one origin UF and one
 * service, both required. A manager has the own UF fixed and the search runs by itself (on the first
 * service, then on each service picked).
 */

interface Filtro {
  uf: string;
  servico: number | null;
}

interface Busca {
  uf: string;
  idModuloServico: number;
}

interface Erros {
  uf?: string;
  servico?: string;
}

export default function ConsumoUfPage() {
  const user = useCurrentUser();
  const gestor = !user.roles.includes('sefaz_admin');
  const ufFixa = gestor ? (user.uf ?? '') : null;
  const [erros, setErros] = useState<Erros>({});
  const { draft: filtro, set, search: busca, onSubmit, apply } = useListSearch<Filtro, Busca>({ empty: { uf: ufFixa ?? '', servico: null }, toSearch: validar, perPage: DEFAULT_PAGE_SIZE });

  const listaServicos = useApiQuery(servicos.listServicos, {});
  const servicoOptions = useMemo(
    () => (listaServicos.data ?? []).map((s) => ({ value: s.idModuloServico, label: s.descricaoModuloServico })),
    [listaServicos.data],
  );
  // A manager's search runs by itself: on the first service as soon as the list arrives.
  const primeiro = servicoOptions[0]?.value;
  /** The service picked; a manager's is the first until another is picked. */
  const servicoDe = (f: Filtro) => f.servico ?? (ufFixa ? (primeiro ?? null) : null);
  const servico = servicoDe(filtro);
  // (adjusting state while rendering, React's documented pattern: the first service is known now).
  if (busca === null && ufFixa && primeiro !== undefined) apply({ uf: ufFixa, idModuloServico: primeiro });
  const lista = useApiQuery(consumo.consumoPorUf, { query: busca ?? { uf: '', idModuloServico: 0 } }, { enabled: busca !== null });

  const escolherServico = useCallback((servico: number | null) => {
    set('servico', servico);
    if (ufFixa && servico !== null) apply({ uf: ufFixa, idModuloServico: servico });
  }, [set, ufFixa, apply]);

  /** Pesquisar's checks: UF and service required (beside each field, and a toast each). */
  function validar(filtro: Filtro): Busca | null {
    const servico = servicoDe(filtro);
    const novos: Erros = {};
    if (!filtro.uf) novos.uf = message('campoObrigatorio', { field: 'UF de Origem' });
    if (servico === null) novos.servico = message('campoObrigatorio', { field: 'Serviço' });
    setErros(novos);
    if (novos.uf || novos.servico || servico === null) {
      for (const m of [novos.uf, novos.servico]) if (m) toast.warn(m);
      return null;
    }
    return { uf: ufFixa ?? filtro.uf, idModuloServico: servico };
  }

  // The panel is the same element until its own values change: the list's answers do not render it again.
  const pesquisar = onSubmit(lista);
  const filters = useMemo(() => (
    <SearchPanel label="Filtros de consumo por UF" onSubmit={pesquisar}>
      <UfFilter label="UF de Origem" required value={filtro.uf} fixa={ufFixa} onChange={(uf) => set('uf', uf)} erro={erros.uf} error={lista.error} />
      <div className="page-field">
        <label htmlFor="filtro-servico">
          Serviço
          <RequiredMark />
        </label>
        <Dropdown
          inputId="filtro-servico"
          options={servicoOptions}
          value={servico}
          onChange={(e) => escolherServico((e.value as number | undefined) ?? null)}
          placeholder="Selecione"
          invalid={Boolean(erros.servico)}
          aria-describedby="filtro-servico-error"
          aria-required
        />
        <FieldError error={lista.error} field="idModuloServico" id="filtro-servico-error" messages={erros.servico ? [erros.servico] : []} />
      </div>
    </SearchPanel>
  ), [pesquisar, filtro.uf, ufFixa, set, erros, lista.error, servicoOptions, servico, escolherServico]);

  return (
    <>
      <ListPage
        title="Consumo por UF"
        filters={filters}
        before={lista.data && <p className="page-hint">Consumo do mês {formatMonth(lista.data.mes)}</p>}
        label="Consumo por UF"
        rows={busca ? lista.data?.itens : []}
        dataKey="uf"
        // A manager's search waits for the services (it runs on the first): their failure is the list's.
        query={combineQueries(ufFixa !== null && listaServicos, busca !== null && lista)}
        paging={{ kind: 'none' }}
      >
        <Column field="uf" header="UF de Origem" />
        <Column field="servico" header="Serviço" />
        <Column header="Quantidade" body={(r: { requisicoes: number }) => formatCount(r.requisicoes)} />
      </ListPage>
    </>
  );
}
