import '../../components/page-layout.css';
import '../../components/chart-view.css';
import './consumo.css';
import { consumo } from '@plac/shared/contracts';
import { MONITORAMENTO_CONSUMO_MESES } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { useMemo, useState } from 'react';
import { FieldError } from '../../components/FieldError';
import { useApiQuery } from '../../lib/api';
import { nomeDoClienteDoUsuario, useCurrentUser } from '../../lib/session';
import { ChartView, type ChartSeries } from '../../components/ChartView';
import { formatCount, mesAtualMais, mesesEntre, mesIso, rotulo } from './model';
import { useOpcoesDeClientes } from '../../lib/opcoes-clientes';
import { MesFilter, PeriodoFilter } from '../../components/PeriodoFilter';
import { ModoConsulta } from '../../components/ModoConsulta';
import { ClienteFilter } from '../../components/ClienteFilter';
import { Loading } from '../../components/RecordStatus';

/**
 * monitoramento-consumo-cliente (sefaz_admin, cliente_monitoramento): a client's successful look-ups
 * (charged requests) and its errors (look-ups that found nothing), as two charts, by month (the last
 * 12 months ending this one unless picked) or by day of a month. The administrator picks any client;
 * a monitoring user has the selector fixed to its own client (the server enforces it too).
 */

type Modo = 'mes' | 'dia';
const MODOS: { label: string; value: Modo }[] = [
  { label: 'Por mês', value: 'mes' },
  { label: 'Por dia', value: 'dia' },
];

const SUCESSO = '#15803d';
const ERRO = '#b91c1c';

interface Filtro {
  cliente: string | null;
  modo: Modo;
  mesInicio: Date | null;
  mesFim: Date | null;
  mes: Date | null;
}

function problemaDo(f: Filtro): string | null {
  if (f.modo === 'dia') return f.mes ? null : message('campoObrigatorio', { field: 'Mês' });
  if (!f.mesInicio || !f.mesFim) return message('campoObrigatorio', { field: f.mesInicio ? 'Mês final' : 'Mês inicial' });
  const meses = mesesEntre(f.mesInicio, f.mesFim);
  if (meses < 0) return message('dataInicioMaiorDataFim');
  if (meses >= MONITORAMENTO_CONSUMO_MESES) return message('periodoMaximoDozeMeses');
  return null;
}

export default function MonitoramentoConsumoClientePage() {
  const user = useCurrentUser();
  const admin = user.roles.includes('sefaz_admin');
  const [f, setF] = useState<Filtro>(() => ({
    cliente: admin ? null : (user.clienteId ?? null),
    modo: 'mes',
    mesInicio: mesAtualMais(-(MONITORAMENTO_CONSUMO_MESES - 1)),
    mesFim: mesAtualMais(0),
    mes: mesAtualMais(0),
  }));
  // The missing client is said once the user consults (changes a filter), not on opening the page.
  const [consultou, setConsultou] = useState(false);
  const set = <K extends keyof Filtro>(key: K, value: Filtro[K]) => {
    setConsultou(true);
    setF((v) => ({ ...v, [key]: value }));
  };

  const { opcoes: opcoesDeClientes } = useOpcoesDeClientes(admin, 'id');
  const problema = problemaDo(f);
  const query =
    f.modo === 'dia'
      ? { modo: 'dia' as const, mes: f.mes ? mesIso(f.mes) : '' }
      : { modo: 'mes' as const, mesInicio: f.mesInicio ? mesIso(f.mesInicio) : '', mesFim: f.mesFim ? mesIso(f.mesFim) : '' };
  const serie = useApiQuery(
    consumo.monitoramentoConsumo,
    { query: { ...query, ...(admin && f.cliente ? { idCliente: f.cliente } : {}) } },
    { enabled: problema === null && (!admin || f.cliente !== null) },
  );
  const data = problema === null && (!admin || f.cliente) ? serie.data : undefined;

  const clienteOptions = useMemo(() => {
    // Never the bare id while the series loads: the company's name kept since login (issue 28).
    if (!admin) return [{ value: user.clienteId ?? '', label: serie.data?.cliente.razaoSocial ?? nomeDoClienteDoUsuario(user) }];
    return opcoesDeClientes;
  }, [admin, opcoesDeClientes, serie.data, user]);

  const labels = useMemo(() => (data?.pontos ?? []).map(rotulo), [data]);
  const sucesso = useMemo<ChartSeries[]>(() => [{ label: 'Sucesso', values: data?.sucesso ?? [], color: SUCESSO }], [data]);
  const erro = useMemo<ChartSeries[]>(() => [{ label: 'Erro', values: data?.erro ?? [], color: ERRO, dashed: true }], [data]);
  const soma = (v: readonly number[]) => v.reduce((a, b) => a + b, 0);
  const periodo = labels.length > 0 ? `de ${labels[0]} a ${labels[labels.length - 1]}` : '';
  const eixo = f.modo === 'mes' ? 'Mês' : 'Dia';
  const resumo = (tipo: string, valores: readonly number[]) =>
    labels.length === 0
      ? `Consultas com ${tipo}: sem dados.`
      : `Gráfico de linhas das consultas com ${tipo} ${periodo}: ${formatCount(soma(valores))} no total.`;

  /** One chart in its card: the successful look-ups, or the errors. */
  const grafico = (tipo: 'sucesso' | 'erro', titulo: string, series: ChartSeries[]) => (
    <section className="page-panel" aria-labelledby={`grafico-${tipo}-titulo`}>
      <h2 id={`grafico-${tipo}-titulo`} className="cargas-card-title">
        {titulo}
      </h2>
      <ChartView kind="line" labels={labels} series={series} summary={resumo(tipo, series[0]!.values)} caption={`Consultas com ${tipo}`} labelHeader={eixo} format={formatCount} />
    </section>
  );

  return (
    <>
      <h1 className="app-page-title">Monitoramento por Cliente</h1>
      <div className="page-panel">
        <div className="page-grid">
          <ClienteFilter id="filtro-cliente" options={clienteOptions} value={f.cliente} onChange={(v) => set('cliente', v ?? null)} admin={admin} placeholder="Selecione um cliente" />
          <ModoConsulta id="monitoramento-modo" value={f.modo} options={MODOS} onChange={(modo) => set('modo', modo)} />
          {f.modo === 'mes' ? (
            <PeriodoFilter
              id="filtro-mes"
              inicio={f.mesInicio}
              fim={f.mesFim}
              onInicio={(m) => set('mesInicio', m)}
              onFim={(m) => set('mesFim', m)}
              ate={mesAtualMais(0)}
              rotulos={['Mês inicial', 'Mês final']}
            />
          ) : (
            <MesFilter id="filtro-mes" rotulo="Mês" valor={f.mes} onChange={(m) => set('mes', m)} ate={mesAtualMais(0)} />
          )}
        </div>
        <FieldError error={serie.error} field="monitoramento" messages={problema ? [problema] : []} />
        {admin && !f.cliente && consultou && <p role="alert">{message('clientePlacObrigatorio')}</p>}
        {serie.isFetching && <Loading />}
      </div>

      <div className="consumo-graficos">
        {grafico('sucesso', 'Sucesso', sucesso)}
        {grafico('erro', 'Erro', erro)}
      </div>
    </>
  );
}
