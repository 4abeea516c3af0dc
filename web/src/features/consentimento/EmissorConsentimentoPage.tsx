import '../../components/page-layout.css';
import { IDLE_QUERY, ListPage } from '../../components/ListPage';
import './consentimento.css';
import { keepPreviousData } from '@tanstack/react-query';
import { routePath } from '@plac/shared/access';
import { consentimento } from '@plac/shared/contracts';
import { formatCnpj, formatCnpjBase, normalizeCnpj, UF_SIGLAS } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Calendar } from 'primereact/calendar';
import { Column } from 'primereact/column';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { SearchPanel } from '../../components/listing';
import { useApiQuery } from '../../lib/api';
import { useListSearch } from '../../components/list-search';
import { formatDate, toTransportDate } from '../../lib/format';
import { useCurrentUser } from '../../lib/session';
import { toast } from '../../lib/toast';
import { PER_PAGE_DEFAULT, type DetalheState, type EmissorLinha } from './model';

/**
 * emissor-consentimento: the consent issuer list (spec 3, 2.16). Filters company, status, UF, start and
 * end date, client type, contract number, name, CNPJ/CPF and client; at least one is required, an end
 * date with a start date, the start not after the end (5.7). A client user has its client fixed and
 * sees only the consents naming an institution its client is authorised for (the server decides).
 * The list is paged on the server by cursor (Anterior / Próxima); the company select searches the
 * issuers by the beginning of their name as it is typed (at most 20 options).
 */

const { SITUACAO_FILTRO_EMISSOR, TIPO_CLIENTE_CODIGOS, validarFiltroConsentimento } = consentimento;

export interface FiltroComum {
  cnpjCliente: string | null;
  uf: string | null;
  numeroContrato: string;
  razaoSocialTransportadora: string;
  cnpjTransportadora: string;
  dataInicial: Date | null;
  dataFinal: Date | null;
}

export const FILTRO_VAZIO: FiltroComum = { cnpjCliente: null, uf: null, numeroContrato: '', razaoSocialTransportadora: '', cnpjTransportadora: '', dataInicial: null, dataFinal: null };
export const UF_OPTIONS = UF_SIGLAS.map((uf) => ({ value: uf, label: uf }));

/** The filter as the API takes it (empty fields left out). */
export function corpoComum(f: FiltroComum, admin: boolean) {
  return {
    ...(f.cnpjCliente ? { cnpjCliente: f.cnpjCliente } : {}),
    ...(f.uf ? { uf: f.uf } : {}),
    ...(f.numeroContrato.trim() ? { numeroContrato: f.numeroContrato.trim() } : {}),
    ...(f.razaoSocialTransportadora.trim() ? { razaoSocialTransportadora: f.razaoSocialTransportadora.trim() } : {}),
    ...(f.cnpjTransportadora.trim() ? { cnpjTransportadora: normalizeCnpj(f.cnpjTransportadora) } : {}),
    ...(f.dataInicial ? { dataInicial: toTransportDate(f.dataInicial) } : {}),
    ...(f.dataFinal ? { dataFinal: toTransportDate(f.dataFinal) } : {}),
    isAdminSefaz: admin,
    isCliente: !admin,
  };
}

/** The rules of spec 3 5.7, before anything is sent: the toast names what is missing. */
export function filtroValido(body: Record<string, unknown>): boolean {
  const erro = validarFiltroConsentimento(body);
  if (erro) toast.error(MESSAGES[erro]);
  return erro === null;
}

interface Filtro extends FiltroComum {
  cnpjEmissor: string | null;
  situacao: number | null;
  tipoCliente: 1 | 2 | 3 | null;
}

type Busca = Record<string, unknown>;

/** The company select's search: the text typed, sent once the typing pauses. */
export function useBuscaDeEmpresas() {
  const [digitado, setDigitado] = useState('');
  const [nome, setNome] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setNome(digitado.trim()), 300);
    return () => clearTimeout(t);
  }, [digitado]);
  return { nome, setDigitado };
}

export default function EmissorConsentimentoPage() {
  const user = useCurrentUser();
  const admin = user.roles.includes('sefaz_admin');
  const navigate = useNavigate();
  const opcoes = useApiQuery(consentimento.opcoes, { query: {} });
  const empresas = useBuscaDeEmpresas();
  const { setDigitado } = empresas;
  const buscaEmpresas = useApiQuery(consentimento.opcoes, { query: { nome: empresas.nome } }, { enabled: empresas.nome !== '', placeholderData: keepPreviousData });
  const [escolhida, setEscolhida] = useState<{ value: string; label: string } | null>(null);
  const { draft: filtro, set, search: busca, pages, page, onSubmit, onClear } = useListSearch<Filtro, Busca>({
    empty: { ...FILTRO_VAZIO, cnpjEmissor: null, situacao: null, tipoCliente: null },
    toSearch: pesquisar,
    perPage: PER_PAGE_DEFAULT,
  });
  const list = useApiQuery(consentimento.filtrarEmissores, { body: { ...busca, ...page } as never }, { enabled: busca !== null, placeholderData: keepPreviousData });

  const clienteFixo = !admin ? (opcoes.data?.clientes[0]?.cnpj ?? null) : null;
  const clienteOptions = useMemo(() => (opcoes.data?.clientes ?? []).map((c) => ({ value: c.cnpj, label: `${c.razaoSocial} - ${formatCnpj(c.cnpj)}` })), [opcoes.data]);
  const emissorOptions = useMemo(() => {
    const achadas = ((empresas.nome ? buscaEmpresas.data : opcoes.data)?.emissores ?? []).map((e) => ({ value: e.cnpj, label: `${e.razaoSocial} - ${formatCnpjBase(e.cnpj)}` }));
    // The company picked stays an option while another text is searched.
    return escolhida && !achadas.some((o) => o.value === escolhida.value) ? [escolhida, ...achadas] : achadas;
  }, [opcoes.data, buscaEmpresas.data, empresas.nome, escolhida]);

  /** Pesquisar: the filter as the API takes it, if the rules of 5.7 accept it. */
  function pesquisar(filtro: Filtro): Busca | null {
    const body = {
      ...corpoComum({ ...filtro, cnpjCliente: clienteFixo ?? filtro.cnpjCliente }, admin),
      ...(filtro.cnpjEmissor ? { cnpjEmissor: filtro.cnpjEmissor } : {}),
      ...(filtro.situacao !== null ? { situacao: filtro.situacao } : {}),
      ...(filtro.tipoCliente !== null ? { tipoCliente: filtro.tipoCliente } : {}),
    };
    return filtroValido(body) ? body : null;
  }

  const detalhar = (r: EmissorLinha) => {
    const state: DetalheState = { emissor: { id: r.id, razaoSocial: r.razaoSocial, cnpj: r.cnpj } };
    navigate(routePath('emissor-consentimento-detalhamento'), { state });
  };

  const items = busca ? (list.data?.items ?? []) : [];

  const limpar = useCallback(() => {
    onClear();
    setEscolhida(null);
  }, [onClear]);

  // The panel is the same element until its own values change: the list's answers do not render it again.
  const enviar = onSubmit(list);
  const filters = useMemo(() => (
    <SearchPanel label="Filtros de consentimentos de emissores" onSubmit={enviar} onClear={limpar}>
      <div className="page-field">
        <label htmlFor="f-empresa">Empresa</label>
        <Dropdown
          inputId="f-empresa"
          options={emissorOptions}
          value={filtro.cnpjEmissor}
          onChange={(e) => {
            const value = (e.value as string | undefined) ?? null;
            setEscolhida(emissorOptions.find((o) => o.value === value) ?? null);
            set('cnpjEmissor', value);
          }}
          filter
          filterBy="label"
          onFilter={(e) => setDigitado(e.filter)}
          showClear
          placeholder="Todas"
          emptyMessage={MESSAGES.nenhumRegistro}
          emptyFilterMessage={MESSAGES.nenhumRegistro}
        />
      </div>
      <div className="page-field">
        <label htmlFor="f-situacao">Status</label>
        <Dropdown inputId="f-situacao" options={[...SITUACAO_FILTRO_EMISSOR]} value={filtro.situacao} onChange={(e) => set('situacao', (e.value as number | undefined) ?? null)} showClear placeholder="Todos" />
      </div>
      <div className="page-field">
        <label htmlFor="f-uf">UF</label>
        <Dropdown inputId="f-uf" options={UF_OPTIONS} value={filtro.uf} onChange={(e) => set('uf', (e.value as string | undefined) ?? null)} showClear placeholder="Todas" />
      </div>
      <div className="page-field">
        <label htmlFor="f-inicio">Data Início</label>
        <Calendar inputId="f-inicio" value={filtro.dataInicial} onChange={(e) => set('dataInicial', (e.value as Date | null | undefined) ?? null)} dateFormat="dd/mm/yy" maxDate={new Date()} showIcon showButtonBar />
      </div>
      <div className="page-field">
        <label htmlFor="f-fim">Data Fim</label>
        <Calendar inputId="f-fim" value={filtro.dataFinal} onChange={(e) => set('dataFinal', (e.value as Date | null | undefined) ?? null)} dateFormat="dd/mm/yy" maxDate={new Date()} showIcon showButtonBar />
      </div>
      <div className="page-field">
        <label htmlFor="f-tipo">Tipo de Cliente</label>
        <Dropdown inputId="f-tipo" options={[...TIPO_CLIENTE_CODIGOS]} value={filtro.tipoCliente} onChange={(e) => set('tipoCliente', (e.value as 1 | 2 | 3 | undefined) ?? null)} showClear placeholder="Todos" />
      </div>
      <div className="page-field">
        <label htmlFor="f-contrato">Número do Contrato</label>
        <InputText id="f-contrato" value={filtro.numeroContrato} maxLength={30} onChange={(e) => set('numeroContrato', e.target.value)} />
      </div>
      <div className="page-field">
        <label htmlFor="f-nome">Nome</label>
        <InputText id="f-nome" value={filtro.razaoSocialTransportadora} maxLength={150} onChange={(e) => set('razaoSocialTransportadora', e.target.value)} />
      </div>
      <div className="page-field">
        <label htmlFor="f-documento">CNPJ/CPF</label>
        <InputText id="f-documento" value={filtro.cnpjTransportadora} maxLength={18} onChange={(e) => set('cnpjTransportadora', e.target.value)} />
      </div>
      <div className="page-field">
        <label htmlFor="f-cliente">Cliente</label>
        <Dropdown inputId="f-cliente" options={clienteOptions} value={clienteFixo ?? filtro.cnpjCliente} disabled={!admin} onChange={(e) => set('cnpjCliente', (e.value as string | undefined) ?? null)} filter filterBy="label" showClear={admin} placeholder="Todos" emptyMessage={MESSAGES.nenhumRegistro} emptyFilterMessage={MESSAGES.nenhumRegistro} />
      </div>
    </SearchPanel>
  ), [enviar, limpar, emissorOptions, filtro, set, setDigitado, clienteOptions, clienteFixo, admin]);

  return (
    <>
      <ListPage
        title="Consentimentos de Emissores"
        filters={filters}
        label="Consentimentos de emissores"
        rows={items}
        dataKey="id"
        query={busca ? list : IDLE_QUERY}
        paging={{ kind: 'cursor', pages, nextCursor: busca ? list.data?.nextCursor : undefined, label: 'Paginação de consentimentos de emissores' }}
      >
        <Column header="Razão Social" field="razaoSocial" />
        <Column header="UF" field="uf" />
        <Column header="CNPJ" body={(r: EmissorLinha) => formatCnpj(r.cnpj)} />
        <Column header="Data do Consentimento" body={(r: EmissorLinha) => formatDate(r.createdAt)} />
        <Column header="Status" field="situacao" />
        <Column header="Data de Atualização" body={(r: EmissorLinha) => formatDate(r.updatedAt)} />
        <Column
          header="Ações"
          body={(r: EmissorLinha) => <Button type="button" icon="pi pi-search" rounded text aria-label={`Detalhar ${r.razaoSocial}`} onClick={() => detalhar(r)} />}
        />
      </ListPage>
    </>
  );
}
