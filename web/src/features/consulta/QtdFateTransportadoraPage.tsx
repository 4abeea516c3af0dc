import '../../components/page-layout.css';
import './consulta.css';
import { keepPreviousData } from '@tanstack/react-query';
import { consulta } from '@plac/shared/contracts';
import { formatCnpj, formatCpf, formatDate } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { Calendar } from 'primereact/calendar';
import { Column } from 'primereact/column';
import { ColumnGroup } from 'primereact/columngroup';
import { Button } from 'primereact/button';
import { DataTable } from 'primereact/datatable';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { Row } from 'primereact/row';
import { useState, type FormEvent } from 'react';
import { SearchActions } from '../../components/listing';
import { useApiQuery } from '../../lib/api';
import { toast } from '../../lib/toast';

/**
 * consulta-qtd-fate-transportadora (sefaz_admin; spec 3, 2.20, 3.18, 7.11): Fat-e per carrier and
 * receipt day in a range of months (the current month by default, at most 12), filtered by CNPJ/CPF
 * and name; the footer shows the page's 'Total' and the 'Total Geral' (from counters). Paged on the
 * server with a cursor: Anterior / Próxima, 10 rows unless asked (10/25/50/100).
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

export default function QtdFateTransportadoraPage() {
  const [form, setForm] = useState<Filtro>(inicial);
  const [busca, setBusca] = useState<Filtro>(inicial);
  // The cursors of the pages seen so far: [undefined] is the first page; Próxima pushes, Anterior pops.
  const [cursores, setCursores] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursores[cursores.length - 1];
  const [perPage, setPerPage] = useState<10 | 25 | 50 | 100>(10);
  const relatorio = useApiQuery(
    consulta.qtdFateTransportadora,
    {
      body: {
        ...(busca.cnpj ? { cnpjTransportadora: busca.cnpj } : {}),
        ...(busca.nome ? { razaoSocialTransportadora: busca.nome } : {}),
        dataFaturaIni: mmAaaa(busca.de),
        dataFaturaFim: mmAaaa(busca.ate),
        ...(cursor ? { cursor } : {}),
        perPage,
      },
    },
    { placeholderData: keepPreviousData },
  );

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (form.de > form.ate) {
      toast.warn(message('dataInicioMaiorDataFim'));
      return;
    }
    setCursores([undefined]);
    setBusca({ ...form });
  }

  const linhas = relatorio.data?.linhas ?? [];
  const totalPagina = linhas.reduce((s, l) => s + l.qtdFate, 0);
  const footer = (
    <ColumnGroup>
      <Row className="consulta-totais">
        <Column footer="Total" colSpan={3} />
        <Column footer={String(totalPagina)} />
      </Row>
      <Row className="consulta-totais">
        <Column footer="Total Geral" colSpan={3} />
        <Column footer={relatorio.data?.totalGeral === undefined ? '—' : String(relatorio.data.totalGeral)} />
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

  return (
    <>
      <h1 className="app-page-title">Quantidade de Fat-e por Transportadora</h1>
      <form className="page-panel" aria-label="Filtros" onSubmit={onSubmit} noValidate>
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
        <SearchActions
          onClear={() => {
            setForm(inicial());
            setBusca(inicial());
            setCursores([undefined]);
          }}
        />
      </form>
      <div className="page-panel">
        <DataTable
          value={linhas}
          loading={relatorio.isFetching}
          footerColumnGroup={footer}
          lazy
          stripedRows
          emptyMessage={relatorio.isFetching ? ' ' : message('nenhumRegistro')}
          aria-label="Quantidade de Fat-e por transportadora"
        >
          <Column header="CNPJ" body={(l: (typeof linhas)[number]) => documento(l.cnpj)} />
          <Column header="Nome" field="nome" />
          <Column header="Data de Recebimento" body={(l: (typeof linhas)[number]) => formatDate(l.dhRecbto)} />
          <Column header="Quantidade" field="qtdFate" />
        </DataTable>
        <nav className="consulta-paginas" aria-label="Páginas">
          <Button type="button" label="Anterior" icon="pi pi-angle-left" text disabled={cursores.length === 1 || relatorio.isFetching} onClick={() => setCursores(cursores.slice(0, -1))} />
          <span>Página {cursores.length}</span>
          <Button
            type="button"
            label="Próxima"
            icon="pi pi-angle-right"
            iconPos="right"
            text
            disabled={!relatorio.data?.nextCursor || relatorio.isFetching}
            onClick={() => setCursores([...cursores, relatorio.data!.nextCursor])}
          />
          <label htmlFor="transp-por-pagina">Por página</label>
          <Dropdown
            inputId="transp-por-pagina"
            value={perPage}
            options={[10, 25, 50, 100]}
            onChange={(e) => {
              setPerPage(e.value as 10 | 25 | 50 | 100);
              setCursores([undefined]);
            }}
          />
        </nav>
      </div>
    </>
  );
}
