import '../../components/page-layout.css';
import { ListTable } from '../../components/ListPage';
import '../../components/chart-view.css';
import './cargas.css';
import { useQueryClient } from '@tanstack/react-query';
import { fate } from '@plac/shared/contracts';
import { FLUXO_LABELS, FLUXOS, formatDateTime, type Fluxo } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Calendar } from 'primereact/calendar';
import { Column } from 'primereact/column';
import { SelectButton } from 'primereact/selectbutton';
import { Tag } from 'primereact/tag';
import { useMemo, useState } from 'react';
import { FieldError } from '../../components/FieldError';
import { ModoConsulta } from '../../components/ModoConsulta';
import { MesFilter, PeriodoFilter } from '../../components/PeriodoFilter';
import { apiQueryKey, useApiQuery } from '../../lib/api';
import { ChartView, type ChartSeries } from '../../components/ChartView';
import {
  diaIso,
  diasEntre,
  hojeMais,
  mesAtualMais,
  mesesEntre,
  mesIso,
  pontosAteHoje,
  rotuloHistorico,
  semZeros,
  somaPorPonto,
  type Historico,
  type ResumoProcessamento,
  type TipoProcessamento,
} from './model';
import { Loading } from '../../components/RecordStatus';

/**
 * The processing monitor of consultar-processamento (documents) and consultar-processamento-evento
 * (financial events): per Sefaz the last update, the status, the last and the maximum NSU; the loaded
 * share as a stacked percentage chart; the stalled loads; and the history of what the loads stored
 * per month, period or day. Refreshed every minute while open, and on 'Atualizar'. 'Documentos' picks
 * the distribution stream the whole screen shows: goods (NF-e, the default) or transport (CT-e).
 */

const REFRESH_MS = 60_000;
const HISTORICO_MAXIMO_DIAS = 90;
const HISTORICO_MAXIMO_MESES = 24;
/** ours: the history by period spans at most 24 months (the API refuses more). */
export const PERIODO_MAXIMO_MESES = 'Selecione um período de, no máximo, 24 meses.';

const CARREGADO = '#15803d';
const PENDENTE = '#b45309';
const CARREGADOS = '#1d4ed8';
const ERROS = '#b91c1c';

const TITULOS: Record<TipoProcessamento, string> = {
  documentos: 'Processamento de Documentos',
  eventos: 'Processamento de Eventos Financeiros',
};

type Modo = 'mes' | 'periodo' | 'dia';
const MODOS: { label: string; value: Modo }[] = [
  { label: 'Por mês', value: 'mes' },
  { label: 'Por período', value: 'periodo' },
  { label: 'Por dia', value: 'dia' },
];

const FLUXO_OPTIONS: { label: string; value: Fluxo }[] = FLUXOS.map((value) => ({ label: FLUXO_LABELS[value], value }));

const percent = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });
const count = new Intl.NumberFormat('pt-BR');
const formatPercent = (value: number) => `${percent.format(value)} %`;
const formatCount = (value: number) => count.format(value);

/** 'HH:mm' in Bahia of an instant. */
const horaDe = (instant: string) => formatDateTime(instant).slice(11);

function Status({ r }: { r: ResumoProcessamento }) {
  return (
    <span className="cargas-status">
      <span>{r.status}</span>
      {r.aguardarAte && <Tag severity="warning" value={`Aguardando até ${horaDe(r.aguardarAte)}`} />}
    </span>
  );
}

function Interrompidas({ grupos }: { grupos: { mais24h: string[]; mais12h: string[]; mais3h: string[] } }) {
  const linhas: [string, string[]][] = [
    ['+ de 24 horas', grupos.mais24h],
    ['+ de 12 horas', grupos.mais12h],
    ['+ de 3 horas', grupos.mais3h],
  ];
  return (
    <section aria-labelledby="cargas-interrompidas-titulo">
      <h3 id="cargas-interrompidas-titulo" className="cargas-subtitle">
        Cargas Interrompidas
      </h3>
      <dl className="cargas-interrompidas">
        {linhas.map(([titulo, siglas]) => (
          <div key={titulo}>
            <dt>{titulo}</dt>
            <dd>{siglas.length === 0 ? <span>Nenhuma</span> : siglas.map((s) => <Tag key={s} value={s} severity="danger" />)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

interface HistoricoFiltro {
  modo: Modo;
  mes: Date | null;
  mesInicio: Date | null;
  mesFim: Date | null;
  diaInicio: Date | null;
  diaFim: Date | null;
}

function filtroInicial(): HistoricoFiltro {
  return {
    modo: 'mes',
    mes: mesAtualMais(0),
    mesInicio: mesAtualMais(-11),
    mesFim: mesAtualMais(0),
    diaInicio: hojeMais(-6),
    diaFim: hojeMais(0),
  };
}

/** The history filter's problem, if any, in words. */
function problemaHistorico(f: HistoricoFiltro): string | null {
  if (f.modo === 'mes') return f.mes ? null : message('campoObrigatorio', { field: 'Mês' });
  if (f.modo === 'periodo') {
    if (!f.mesInicio || !f.mesFim) return message('campoObrigatorio', { field: f.mesInicio ? 'Mês final' : 'Mês inicial' });
    const meses = mesesEntre(f.mesInicio, f.mesFim);
    if (meses < 0) return message('dataInicioMaiorDataFim');
    if (meses >= HISTORICO_MAXIMO_MESES) return PERIODO_MAXIMO_MESES;
    return null;
  }
  if (!f.diaInicio || !f.diaFim) return f.diaInicio ? message('dataFimObrigatoria') : message('dataInicioObrigatoria');
  const dias = diasEntre(f.diaInicio, f.diaFim);
  if (dias < 0) return message('dataInicioMaiorDataFim');
  if (dias > HISTORICO_MAXIMO_DIAS) return message('faixaDataInvalida');
  return null;
}

function HistoricoProcessamento({ tipo, fluxo }: { tipo: TipoProcessamento; fluxo: Fluxo }) {
  const [f, setF] = useState<HistoricoFiltro>(filtroInicial);
  const set = <K extends keyof HistoricoFiltro>(key: K, value: HistoricoFiltro[K]) => setF((v) => ({ ...v, [key]: value }));
  const problema = problemaHistorico(f);
  const ok = problema === null;
  const query = { tipo, fluxo };

  const porMes = useApiQuery(fate.historicoMes, { params: { mes: f.mes ? mesIso(f.mes) : '' }, query }, { enabled: ok && f.modo === 'mes' });
  const porPeriodo = useApiQuery(
    fate.historicoPeriodo,
    { params: { a: f.mesInicio ? mesIso(f.mesInicio) : '', b: f.mesFim ? mesIso(f.mesFim) : '' }, query },
    { enabled: ok && f.modo === 'periodo' },
  );
  const porDia = useApiQuery(
    fate.historicoDia,
    { params: { a: f.diaInicio ? diaIso(f.diaInicio) : '', b: f.diaFim ? diaIso(f.diaFim) : '' }, query },
    { enabled: ok && f.modo === 'dia' },
  );
  const ativo = f.modo === 'mes' ? porMes : f.modo === 'periodo' ? porPeriodo : porDia;
  const data: Historico | undefined = ok ? ativo.data : undefined;

  // Only up to today: the current month's remaining days are not zeros (pontosAteHoje).
  const ateHoje = useMemo(() => pontosAteHoje(data?.dias ?? [], diaIso(new Date())), [data]);
  const labels = useMemo(() => (data?.dias ?? []).slice(0, ateHoje).map(rotuloHistorico), [data, ateHoje]);
  const series = useMemo<ChartSeries[]>(() => {
    const pontos = data?.dias.length ?? 0;
    return [
      { label: 'Carregados', values: somaPorPonto(data?.serie ?? [], pontos).slice(0, ateHoje), color: CARREGADOS },
      { label: 'Erros', values: somaPorPonto(data?.serie_erro ?? [], pontos).slice(0, ateHoje), color: ERROS, dashed: true },
    ];
  }, [data, ateHoje]);
  const totalCarregados = series[0]!.values.reduce((a, b) => a + b, 0);
  const totalErros = series[1]!.values.reduce((a, b) => a + b, 0);
  const porMesLabel = f.modo === 'periodo' ? 'Mês' : 'Dia';
  const unidade = tipo === 'eventos' ? 'eventos' : 'documentos';
  const resumo =
    labels.length === 0
      ? 'Histórico de processamento: sem dados no período.'
      : `Gráfico de linhas do histórico de processamento, de ${labels[0]} a ${labels[labels.length - 1]}: ` +
        `${formatCount(totalCarregados)} ${unidade} carregados e ${formatCount(totalErros)} com erro no total.`;

  const day = (id: string, key: 'diaInicio' | 'diaFim', label: string) => (
    <div className="page-field">
      <label htmlFor={id}>{label}</label>
      <Calendar
        inputId={id}
        value={f[key]}
        onChange={(e) => set(key, e.value instanceof Date ? e.value : null)}
        dateFormat="dd/mm/yy"
        maxDate={hojeMais(0)}
        showIcon
        tooltip={message('faixaDataInvalida')}
        tooltipOptions={{ position: 'top' }}
      />
    </div>
  );

  return (
    <section className="page-panel" aria-labelledby={`historico-${tipo}-titulo`}>
      <h2 id={`historico-${tipo}-titulo`} className="cargas-card-title">
        Histórico de Processamento
      </h2>
      <div className="cargas-historico-filtros">
        <ModoConsulta id={`historico-${tipo}-modo`} value={f.modo} options={MODOS} onChange={(modo) => set('modo', modo)} />
        {f.modo === 'mes' && <MesFilter id="historico-mes" rotulo="Mês" valor={f.mes} onChange={(m) => set('mes', m)} ate={mesAtualMais(0)} />}
        {f.modo === 'periodo' && (
          <PeriodoFilter id="historico-mes" inicio={f.mesInicio} fim={f.mesFim} onInicio={(m) => set('mesInicio', m)} onFim={(m) => set('mesFim', m)} ate={mesAtualMais(0)} rotulos={['Mês inicial', 'Mês final']} />
        )}
        {f.modo === 'dia' && (
          <>
            {day('historico-dia-inicio', 'diaInicio', 'Data Início')}
            {day('historico-dia-fim', 'diaFim', 'Data Fim')}
          </>
        )}
      </div>
      <FieldError error={null} field="historico" messages={problema ? [problema] : []} />
      {ativo.isFetching && ok && <Loading />}
      <ChartView
        kind="line"
        labels={labels}
        series={series}
        summary={resumo}
        caption={`Histórico de processamento: ${unidade} carregados e com erro`}
        labelHeader={porMesLabel}
        format={formatCount}
      />
    </section>
  );
}

export function ProcessamentoMonitor({ tipo }: { tipo: TipoProcessamento }) {
  const queryClient = useQueryClient();
  const [fluxo, setFluxo] = useState<Fluxo>('nfe');
  const contract = tipo === 'eventos' ? fate.monitoramentoEvento : fate.monitoramento;
  const monitor = useApiQuery(contract as typeof fate.monitoramento, { query: { fluxo } }, { refetchInterval: REFRESH_MS });
  const resumo = useMemo(() => monitor.data?.resumo ?? [], [monitor.data]);
  const interrompidas = monitor.data?.interrompidas ?? { mais24h: [], mais12h: [], mais3h: [] };

  const labels = useMemo(() => resumo.map((r) => r.sigla), [resumo]);
  const series = useMemo<ChartSeries[]>(
    () => [
      { label: 'Carregado', values: resumo.map((r) => r.carregado), color: CARREGADO },
      { label: 'Pendente', values: resumo.map((r) => Math.round((100 - r.carregado) * 10) / 10), color: PENDENTE },
    ],
    [resumo],
  );
  const completas = resumo.filter((r) => r.carregado >= 100).length;
  const parciais = resumo.filter((r) => r.carregado < 100).map((r) => `${r.sigla} ${formatPercent(r.carregado)}`);
  const resumoGrafico =
    resumo.length === 0
      ? 'Percentual carregado por Sefaz: sem dados.'
      : `Gráfico de barras empilhadas do percentual carregado e pendente de ${resumo.length} Sefaz: ` +
        `${completas} com 100 % carregado` +
        (parciais.length > 0 ? `; carregado parcialmente: ${parciais.join(', ')}.` : '.');

  function atualizar() {
    void monitor.refetch();
    void queryClient.invalidateQueries({ queryKey: apiQueryKey(fate.historicoMes) });
    void queryClient.invalidateQueries({ queryKey: apiQueryKey(fate.historicoPeriodo) });
    void queryClient.invalidateQueries({ queryKey: apiQueryKey(fate.historicoDia) });
  }

  return (
    <>
      <div className="page-header">
        <h1 className="app-page-title">{TITULOS[tipo]}</h1>
        <Button type="button" label="Atualizar" icon="pi pi-refresh" onClick={atualizar} loading={monitor.isFetching} />
      </div>

      <div className="page-field cargas-fluxo">
        <span className="cargas-field-label" aria-hidden="true">
          Documentos
        </span>
        <SelectButton
          value={fluxo}
          options={FLUXO_OPTIONS}
          onChange={(e) => {
            if (e.value) setFluxo(e.value as Fluxo);
          }}
          allowEmpty={false}
          aria-label="Documentos"
        />
      </div>

      <div className="cargas-cards">
        <section className="page-panel" aria-labelledby={`resumo-${tipo}-titulo`}>
          <h2 id={`resumo-${tipo}-titulo`} className="cargas-card-title">
            Resumo Processamento
          </h2>
          <ListTable
            label="Resumo Processamento"
            rows={resumo}
            dataKey="sigla"
            // Polled every few seconds: the spinner only until the first answer, not on every poll.
            query={{ ...monitor, isFetching: monitor.isPending && monitor.isFetching }}
            paging={{ kind: 'none' }}
            table={{ size: 'small' }}
          >
            <Column field="sigla" header="Sefaz" />
            <Column header="Última atualização" body={(r: ResumoProcessamento) => (r.updatedAt ? formatDateTime(r.updatedAt) : '—')} />
            <Column header="Status" body={(r: ResumoProcessamento) => <Status r={r} />} />
            <Column header="Último NSU" body={(r: ResumoProcessamento) => semZeros(r.ultNSU)} />
            <Column header="NSU Máximo" body={(r: ResumoProcessamento) => semZeros(r.nsuMax)} />
          </ListTable>
        </section>

        <section className="page-panel" aria-labelledby={`carregado-${tipo}-titulo`}>
          <h2 id={`carregado-${tipo}-titulo`} className="cargas-card-title">
            Percentual Carregado por Sefaz
          </h2>
          <ChartView
            kind="percent"
            labels={labels}
            series={series}
            summary={resumoGrafico}
            caption="Percentual carregado e pendente por Sefaz"
            labelHeader="Sefaz"
            format={formatPercent}
          />
          <Interrompidas grupos={interrompidas} />
        </section>
      </div>

      <HistoricoProcessamento tipo={tipo} fluxo={fluxo} />
    </>
  );
}
