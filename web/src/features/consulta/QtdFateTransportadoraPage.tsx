import '../../components/page-layout.css';
import './consulta.css';
import { keepPreviousData } from '@tanstack/react-query';
import { consulta } from '@plac/shared/contracts';
import { formatCnpj, formatCpf, formatDate, formatDateTime } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { Calendar } from 'primereact/calendar';
import { Column } from 'primereact/column';
import { ColumnGroup } from 'primereact/columngroup';
import { InputText } from 'primereact/inputtext';
import { Row } from 'primereact/row';
import { ListPage } from '../../components/ListPage';
import { SearchActions } from '../../components/listing';
import { useListSearch } from '../../components/list-search';
import { useApiQuery } from '../../lib/api';
import { toast } from '../../lib/toast';

/**
 * consulta-qtd-fate-transportadora (sefaz_admin; spec 3, 2.20, 3.18, 7.11): Fat-e per carrier and
 * receipt day in a range of months (the current month by default, at most 12), filtered by CNPJ/CPF
 * and name; the footer shows the page's 'Total' and the 'Total Geral' (from counters). Paged on the
 * server with a cursor: Anterior / Próxima, 10 rows unless asked (10/25/50/100). A filter matching many
 * carriers has its grand total computed by a job (functions/consulta/total-transportadoras.ts): while
 * the answer says PROCESSANDO the footer shows 'Calculando total…' and the page asks again every
 * INTERVALO_TOTAL_MS until the total is there. A list page like every other (components/ListPage.tsx):
 * a failed request shows the catalogue's message and 'Tentar novamente', never an empty table.
 */

interface Filtro {
  cnpj: string;
  nome: string;
  de: Date;
  ate: Date;
}

const mmAaaa = (d: Date) => `${String(d.getMonth() + 1).padStart(2, '0')}/${d.getFullYear()}`;
const documento = (doc: string) => (doc.length === 11 ? formatCpf(doc) : formatCnpj(doc));
const inicial = (): Filtro => ({ cnpj: '', nome: '', de: new Date(), ate: new Date() });
/** How often the page asks again while the grand total is being computed. */
export const INTERVALO_TOTAL_MS = 3_000;

/** Pesquisar's check: the first month not after the last. */
function validar(form: Filtro): Filtro | null {
  if (form.de > form.ate) {
    toast.warn(message('dataInicioMaiorDataFim'));
    return null;
  }
  return { ...form };
}

export default function QtdFateTransportadoraPage() {
  const listSearch = useListSearch<Filtro, Filtro>({ empty: inicial, toSearch: validar, first: (f) => ({ ...f }), perPage: 10 });
  const { draft: form, setDraft: setForm, pages, page, onSubmit, onClear } = listSearch;
  // Never idle (the current month on arrival and after Limpar).
  const busca = listSearch.search ?? form;
  const relatorio = useApiQuery(
    consulta.qtdFateTransportadora,
    {
      body: {
        ...(busca.cnpj ? { cnpjTransportadora: busca.cnpj } : {}),
        ...(busca.nome ? { razaoSocialTransportadora: busca.nome } : {}),
        dataFaturaIni: mmAaaa(busca.de),
        dataFaturaFim: mmAaaa(busca.ate),
        ...(page.cursor ? { cursor: page.cursor } : {}),
        perPage: page.perPage as 10 | 25 | 50 | 100,
      },
    },
    {
      placeholderData: keepPreviousData,
      // Until the filter's grand total is computed; stops once the answer has it.
      refetchInterval: (query) => (query.state.data?.situacaoTotalGeral === 'PROCESSANDO' ? INTERVALO_TOTAL_MS : false),
    },
  );

  const linhas = relatorio.data?.linhas ?? [];
  const totalPagina = linhas.reduce((s, l) => s + l.qtdFate, 0);
  const calculando = relatorio.data?.situacaoTotalGeral === 'PROCESSANDO';
  const totalGeral = calculando ? message('totalGeralCalculando') : relatorio.data?.totalGeral === undefined ? '—' : String(relatorio.data.totalGeral);
  const calculadoEm = relatorio.data?.totalGeralCalculadoEm;
  const footer = (
    <ColumnGroup>
      <Row className="consulta-totais">
        <Column footer="Total" colSpan={3} />
        <Column footer={String(totalPagina)} />
      </Row>
      <Row className="consulta-totais">
        <Column footer="Total Geral" colSpan={3} />
        <Column
          footer={
            <span role="status" title={!calculando && calculadoEm ? message('totalGeralCalculadoEm', { data: formatDateTime(calculadoEm) }) : undefined}>
              {totalGeral}
            </span>
          }
        />
      </Row>
    </ColumnGroup>
  );
  const mes = (id: string, label: string, key: 'de' | 'ate') => (
    <div className="page-field">
      <label htmlFor={id}>{label}</label>
      <Calendar
        inputId={id}
        view="month"
        dateFormat="mm/yy"
        value={form[key]}
        maxDate={new Date()}
        onChange={(e) => e.value instanceof Date && setForm({ ...form, [key]: e.value })}
        showIcon
      />
    </div>
  );

  const filtros = (
    <form className="page-panel" aria-label="Filtros" onSubmit={onSubmit(relatorio)} noValidate>
      <div className="page-grid">
        <div className="page-field">
          <label htmlFor="transp-cnpj">CNPJ/CPF</label>
          <InputText id="transp-cnpj" value={form.cnpj} maxLength={18} onChange={(e) => setForm({ ...form, cnpj: e.target.value.toUpperCase().replace(/[^0-9A-Z]/g, '') })} />
        </div>
        <div className="page-field">
          <label htmlFor="transp-nome">Nome</label>
          <InputText id="transp-nome" value={form.nome} maxLength={100} onChange={(e) => setForm({ ...form, nome: e.target.value })} />
        </div>
        {mes('transp-de', 'Mês Referência Inicial', 'de')}
        {mes('transp-ate', 'Mês Referência Final', 'ate')}
      </div>
      <SearchActions onClear={onClear} />
    </form>
  );

  return (
    <ListPage
      title="Quantidade de Fat-e por Transportadora"
      filters={filtros}
      label="Quantidade de Fat-e por transportadora"
      rows={linhas}
      query={relatorio}
      paging={{ kind: 'cursor', pages, nextCursor: relatorio.data?.nextCursor, label: 'Paginação', sizes: [10, 25, 50, 100] }}
      table={{ footerColumnGroup: footer }}
    >
      <Column header="CNPJ" body={(l: (typeof linhas)[number]) => documento(l.cnpj)} />
      <Column header="Nome" field="nome" />
      <Column header="Data de Recebimento" body={(l: (typeof linhas)[number]) => formatDate(l.dhRecbto)} />
      <Column header="Quantidade" field="qtdFate" />
    </ListPage>
  );
}
