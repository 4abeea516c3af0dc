import '../../components/page-layout.css';
import { IDLE_QUERY, ListPage } from '../../components/ListPage';
import './consentimento.css';
import { keepPreviousData } from '@tanstack/react-query';
import { consentimento } from '@plac/shared/contracts';
import { formatCnpj, isValidCnpj } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { Calendar } from 'primereact/calendar';
import { Column } from 'primereact/column';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { useMemo } from 'react';
import { SearchPanel } from '../../components/listing';
import { useApiQuery } from '../../lib/api';
import { useListSearch } from '../../components/list-search';
import { formatDate } from '../../lib/format';
import { useCurrentUser } from '../../lib/session';
import { corpoComum, FILTRO_VAZIO, filtroValido, UF_OPTIONS, type FiltroComum } from './EmissorConsentimentoPage';
import { PER_PAGE_DEFAULT, type TransporteLinha } from './model';

/**
 * emissor-consentimento-transporte: the carrier/drawer consent list (spec 3, 2.17): filters client,
 * status (1 Ativo, 2 Desativado), UF, contract number, carrier name, CNPJ/CPF, type (Todos -1,
 * MERCADORIA -2, ETC 1, MEI 2, TAC 3) and dates, with the rules of 5.7; the type column shows 0
 * MERCADORIA, 1 ETC, 2 MEI, 3 TAC, anything else blank.
 */

const { SITUACAO_FILTRO_TRANSPORTE, TIPO_TRANSPORTADOR_FILTRO, tipoTransportadorLabel } = consentimento;

interface Filtro extends FiltroComum {
  situacao: number | null;
  transportador: number;
}

type Busca = Record<string, unknown>;

const documento = (v: string) => (v.length === 14 && isValidCnpj(v) ? formatCnpj(v) : v);

export default function EmissorConsentimentoTransportePage() {
  const user = useCurrentUser();
  const admin = user.roles.includes('sefaz_admin');
  const opcoes = useApiQuery(consentimento.opcoes, { query: {} });
  const { draft: filtro, set, search: busca, pages, page, onSubmit, onClear } = useListSearch<Filtro, Busca>({
    empty: { ...FILTRO_VAZIO, situacao: null, transportador: -1 },
    toSearch: pesquisar,
    perPage: PER_PAGE_DEFAULT,
  });
  const list = useApiQuery(consentimento.filtrarTransporte, { body: { ...busca, ...page } as never }, { enabled: busca !== null, placeholderData: keepPreviousData });
  const clienteFixo = !admin ? (opcoes.data?.clientes[0]?.cnpj ?? null) : null;
  const clienteOptions = useMemo(() => (opcoes.data?.clientes ?? []).map((c) => ({ value: c.cnpj, label: `${c.razaoSocial} - ${formatCnpj(c.cnpj)}` })), [opcoes.data]);

  /** Pesquisar: the filter as the API takes it, if the rules of 5.7 accept it. */
  function pesquisar(filtro: Filtro): Busca | null {
    const body = {
      ...corpoComum({ ...filtro, cnpjCliente: clienteFixo ?? filtro.cnpjCliente }, admin),
      ...(filtro.situacao !== null ? { situacao: filtro.situacao } : {}),
      transportador: filtro.transportador,
    };
    return filtroValido(body) ? body : null;
  }

  // The panel is the same element until its own values change: the list's answers do not render it again.
  const enviar = onSubmit(list);
  const filters = useMemo(() => (
    <SearchPanel label="Filtros de consentimentos de transporte" onSubmit={enviar} onClear={onClear}>
      <div className="page-field">
        <label htmlFor="t-cliente">Cliente</label>
        <Dropdown inputId="t-cliente" options={clienteOptions} value={clienteFixo ?? filtro.cnpjCliente} disabled={!admin} onChange={(e) => set('cnpjCliente', (e.value as string | undefined) ?? null)} filter filterBy="label" showClear={admin} placeholder="Todos" emptyMessage={MESSAGES.nenhumRegistro} emptyFilterMessage={MESSAGES.nenhumRegistro} />
      </div>
      <div className="page-field">
        <label htmlFor="t-situacao">Status</label>
        <Dropdown inputId="t-situacao" options={[...SITUACAO_FILTRO_TRANSPORTE]} value={filtro.situacao} onChange={(e) => set('situacao', (e.value as number | undefined) ?? null)} showClear placeholder="Todos" />
      </div>
      <div className="page-field">
        <label htmlFor="t-uf">UF</label>
        <Dropdown inputId="t-uf" options={UF_OPTIONS} value={filtro.uf} onChange={(e) => set('uf', (e.value as string | undefined) ?? null)} showClear placeholder="Todas" />
      </div>
      <div className="page-field">
        <label htmlFor="t-contrato">Número do Contrato</label>
        <InputText id="t-contrato" value={filtro.numeroContrato} maxLength={30} onChange={(e) => set('numeroContrato', e.target.value)} />
      </div>
      <div className="page-field">
        <label htmlFor="t-nome">Nome do Transportador</label>
        <InputText id="t-nome" value={filtro.razaoSocialTransportadora} maxLength={150} onChange={(e) => set('razaoSocialTransportadora', e.target.value)} />
      </div>
      <div className="page-field">
        <label htmlFor="t-documento">CNPJ/CPF</label>
        <InputText id="t-documento" value={filtro.cnpjTransportadora} maxLength={18} onChange={(e) => set('cnpjTransportadora', e.target.value)} />
      </div>
      <div className="page-field">
        <label htmlFor="t-tipo">Tipo</label>
        <Dropdown inputId="t-tipo" options={[...TIPO_TRANSPORTADOR_FILTRO]} value={filtro.transportador} onChange={(e) => set('transportador', (e.value as number | undefined) ?? -1)} />
      </div>
      <div className="page-field">
        <label htmlFor="t-inicio">Data Início</label>
        <Calendar inputId="t-inicio" value={filtro.dataInicial} onChange={(e) => set('dataInicial', (e.value as Date | null | undefined) ?? null)} dateFormat="dd/mm/yy" maxDate={new Date()} showIcon showButtonBar />
      </div>
      <div className="page-field">
        <label htmlFor="t-fim">Data Fim</label>
        <Calendar inputId="t-fim" value={filtro.dataFinal} onChange={(e) => set('dataFinal', (e.value as Date | null | undefined) ?? null)} dateFormat="dd/mm/yy" maxDate={new Date()} showIcon showButtonBar />
      </div>
    </SearchPanel>
  ), [enviar, onClear, clienteOptions, clienteFixo, filtro, admin, set]);

  return (
    <>
      <ListPage
        title="Consentimentos de Transporte"
        filters={filters}
        label="Consentimentos de transporte"
        rows={busca ? list.data?.items : []}
        query={busca ? list : IDLE_QUERY}
        paging={{ kind: 'cursor', pages, nextCursor: busca ? list.data?.nextCursor : undefined, label: 'Paginação de consentimentos de transporte' }}
      >
        <Column header="Empresa" field="sacadorRazaoSocial" />
        <Column header="CNPJ/CPF" body={(r: TransporteLinha) => documento(r.sacadorCNPJ)} />
        <Column header="UF" field="sacadorUF" />
        <Column header="Número do Contrato" field="consentimentoNumeroContrato" />
        <Column header="Data do Consentimento" body={(r: TransporteLinha) => formatDate(r.consentimentoDataAssinatura)} />
        <Column header="Status" field="situacao" />
        <Column header="Data de Finalização" body={(r: TransporteLinha) => formatDate(r.consentimentoDataVigenciaFinal)} />
        <Column header="Tipo" body={(r: TransporteLinha) => tipoTransportadorLabel(r.sacadorTipoTransportador)} />
      </ListPage>
    </>
  );
}
