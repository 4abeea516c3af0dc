import { combineQueries, ListError, ListTable } from '../../components/ListPage';
import { rateio } from '@plac/shared/contracts';
import { formatBRL, type Centavos } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Calendar } from 'primereact/calendar';
import { Column } from 'primereact/column';
import { useEffect, useState } from 'react';
import { AppDialog } from '../../components/AppDialog';
import { ConfirmSimNao } from '../../components/ConfirmSimNao';
import { callApi, useApiQuery } from '../../lib/api';
import { mesAtualMais, mesIso } from '../../lib/calendar';
import { downloadText } from '../../lib/download';
import { formatDateTime } from '../../lib/format';
import { useSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import { mesParaData } from './model';
import { aguardandoSolicitacao, situacaoEmPalavras, textoSituacao, TIPO_TEXTO, type Execucao, type Solicitacao } from './repasse-situacao';

/**
 * 'Previsão de Repasse' (spec 2, 2.11 and 4; issue 28 item 2): the month, the forecast and simulation
 * CSVs, 'Gerar Simulação' (while the month's definitive report does not exist) and 'Gerar Rateio'; once
 * a definitive run of the month has concluded, its report and its transfer orders; the month's runs
 * (kind, who, when, status in words, totals). From the click on, a run shows as 'Solicitado', then
 * 'Em andamento', then its result: the screen polls while a run is requested or running.
 */

const POLL_MS = 1000;

type Arquivo = 'previsao' | 'simulacao' | 'definitivo' | 'ordens';
const ARQUIVOS = {
  previsao: { contract: rateio.previsaoCsv, nome: 'previsao-repasse.csv', vazio: MESSAGES.semPrevisaoRateio },
  simulacao: { contract: rateio.simulacaoCsv, nome: 'simulacao-repasse.csv', vazio: MESSAGES.semPrevisaoRateio },
  definitivo: { contract: rateio.definitivoCsv, nome: 'definitivo-repasse.csv', vazio: MESSAGES.repasseDefinitivoVazio },
  ordens: { contract: rateio.ordensCsv, nome: 'ordens-repasse.csv', vazio: MESSAGES.repasseDefinitivoVazio },
} as const;

const brl = (v: number) => formatBRL(v as Centavos);

/** A history row: a run the API listed, or the one requested on this screen and not listed yet. */
type Linha = Execucao | (Pick<Execucao, 'tipo' | 'iniciadoPor'> & { execucaoId: null; situacao: 'SOLICITADO' });

export function PrevisaoRepasseDialog({ visible, onClose, onDone }: { visible: boolean; onClose: () => void; onDone: () => void }) {
  const usuario = useSession().user?.name ?? '';
  const [mes, setMes] = useState(mesIso(mesAtualMais(-1)));
  const [confirmar, setConfirmar] = useState<true | null>(null);
  const [solicitado, setSolicitado] = useState<Solicitacao | null>(null);
  const definitivo = useApiQuery(rateio.definitivoGerado, { query: { mes } }, { enabled: visible, notify: false });
  const situacao = useApiQuery(rateio.situacaoRepasse, { query: { mes } }, {
    enabled: visible,
    notify: false,
    // Polled while a run is requested here or running (any kind).
    refetchInterval: (q) => (solicitado !== null || [q.state.data?.simulacao, q.state.data?.definitivo].some((s) => s?.situacao === 'EM_ANDAMENTO') ? POLL_MS : false),
  });
  const estado = combineQueries(definitivo, situacao);
  const s = situacao.data;
  const emCurso = solicitado !== null || [s?.simulacao, s?.definitivo].some((x) => x?.situacao === 'EM_ANDAMENTO');
  const historico = useApiQuery(rateio.historicoRepasse, { query: { mes } }, {
    enabled: visible,
    notify: false,
    refetchInterval: (q) => (emCurso || (q.state.data ?? []).some((e) => e.situacao === 'EM_ANDAMENTO') ? POLL_MS : false),
  });

  // The request is done with once the API shows the requested run (then its own status rules):
  // cleared while rendering (React's pattern for state adjusted to new data), not in an effect.
  if (solicitado && !aguardandoSolicitacao(solicitado, solicitado.tipo, solicitado.tipo === 'SIMULACAO' ? s?.simulacao : s?.definitivo)) setSolicitado(null);

  // A definitive run that ends (concluded or failed) changes whether another may be started.
  const situacaoDefinitivo = s?.definitivo?.situacao;
  const refetchDefinitivo = definitivo.refetch;
  useEffect(() => {
    if (visible && situacaoDefinitivo) void refetchDefinitivo();
  }, [visible, situacaoDefinitivo, refetchDefinitivo]);

  function trocarMes(novo: string) {
    setMes(novo);
    setSolicitado(null);
  }

  async function baixar(tipo: Arquivo) {
    const arquivo = ARQUIVOS[tipo];
    try {
      const csv = await callApi(arquivo.contract, { query: { mes } });
      const linhas = csv.replace(/^\uFEFF/, '').trim().split(/\r?\n/);
      if (linhas.length <= 1) {
        toast.warn(arquivo.vazio);
        return;
      }
      downloadText(arquivo.nome, csv.startsWith('\uFEFF') ? csv : `\uFEFF${csv}`, 'text/csv;charset=utf-8');
    } catch {
      toast.error(MESSAGES.erroInterno);
    }
  }

  async function gerar(tipo: 'simulacao' | 'definitivo') {
    setConfirmar(null);
    const pedido: Solicitacao['tipo'] = tipo === 'simulacao' ? 'SIMULACAO' : 'DEFINITIVO';
    setSolicitado({ tipo: pedido, execucaoId: null });
    try {
      const r = await callApi(tipo === 'simulacao' ? rateio.simularRepasse : rateio.gerarRepasse, { body: { mes } });
      setSolicitado({ tipo: pedido, execucaoId: r.execucaoId });
      toast.success(MESSAGES.repasseIniciado);
    } catch {
      setSolicitado(null);
      return;
    }
    void definitivo.refetch();
    void situacao.refetch();
    void historico.refetch();
    onDone();
  }

  const definitivoConcluido = s?.definitivo?.situacao === 'CONCLUIDO';
  const execucoes = historico.data ?? [];
  const linhas: Linha[] =
    solicitado && !execucoes.some((e) => e.execucaoId === solicitado.execucaoId)
      ? [{ execucaoId: null, tipo: solicitado.tipo, iniciadoPor: usuario, situacao: 'SOLICITADO' }, ...execucoes]
      : execucoes;

  return (
    <>
      <AppDialog header="Previsão de Repasse" visible={visible} onHide={onClose} style={{ width: 'min(56rem, 95vw)' }}>
        <div className="page-field">
          <label htmlFor="repasse-mes">Mês</label>
          <Calendar inputId="repasse-mes" value={mesParaData(mes)} onChange={(e) => e.value instanceof Date && trocarMes(mesIso(e.value))} view="month" dateFormat="mm/yy" maxDate={mesAtualMais(-1)} showIcon />
        </div>
        {/* The month's status read silently (no toast on every poll): a failure is said here, with a retry, never shown as 'não gerado'. */}
        {estado.isError && <ListError error={estado.error} onRetry={() => void estado.refetch()} />}
        <p className="page-note" aria-live="polite">
          Simulação: {textoSituacao('SIMULACAO', s?.simulacao, solicitado)}. Repasse definitivo: {textoSituacao('DEFINITIVO', s?.definitivo, solicitado)}.
        </p>
        {/* Issue 37 item 2: which group the figures are split under, said where they are downloaded. */}
        <p className="page-note" data-testid="grupo-do-repasse">
          {definitivoConcluido
            ? 'Repasse definitivo gerado: a previsão, os totais e as ordens deste mês são os distribuídos, com o grupo de rateio gravado no repasse.'
            : 'A previsão e a simulação repartem as faturas pagas com o grupo de rateio vigente hoje; o repasse definitivo grava o grupo e os valores distribuídos.'}
        </p>
        <div className="page-actions">
          <Button type="button" label="Baixar Previsão" icon="pi pi-download" severity="secondary" outlined onClick={() => void baixar('previsao')} />
          <Button type="button" label="Baixar Simulação" icon="pi pi-download" severity="secondary" outlined onClick={() => void baixar('simulacao')} />
          {definitivoConcluido && <Button type="button" label="Baixar Rateio Definitivo" icon="pi pi-download" severity="secondary" outlined onClick={() => void baixar('definitivo')} />}
          {definitivoConcluido && <Button type="button" label="Baixar Ordens de Transferência" icon="pi pi-download" severity="secondary" outlined onClick={() => void baixar('ordens')} />}
          {definitivo.data === false && <Button type="button" label="Gerar Simulação" icon="pi pi-play" disabled={emCurso} onClick={() => void gerar('simulacao')} />}
          <Button type="button" label="Gerar Rateio" icon="pi pi-check" severity="danger" disabled={definitivo.data !== false || emCurso} onClick={() => setConfirmar(true)} />
        </div>
        <ListTable
          label="Execuções do repasse"
          rows={linhas}
          dataKey="execucaoId"
          // Polled while a run is under way: the spinner only until the first answer, not on every poll.
          query={{ ...historico, isFetching: historico.isPending && historico.isFetching }}
          paging={{ kind: 'none' }}
          table={{ size: 'small' }}
        >
          <Column header="Tipo" body={(l: Linha) => TIPO_TEXTO[l.tipo]} />
          <Column header="Iniciado por" body={(l: Linha) => l.iniciadoPor} />
          <Column header="Início" body={(l: Linha) => (l.execucaoId ? formatDateTime(l.iniciadoEm) : '-')} />
          <Column header="Situação" body={(l: Linha) => (l.execucaoId ? <span title={l.erro ?? undefined}>{situacaoEmPalavras(l.situacao)}</span> : 'Solicitado')} />
          <Column header="Término" body={(l: Linha) => (l.execucaoId && l.concluidoEm ? formatDateTime(l.concluidoEm) : '-')} />
          <Column header="Faturas" body={(l: Linha) => (l.execucaoId && l.faturas !== null ? l.faturas : '-')} />
          <Column header="Total" body={(l: Linha) => (l.execucaoId && l.total !== null ? brl(l.total) : '-')} align="right" bodyClassName="list-money" />
          <Column header="Ordens" body={(l: Linha) => (l.execucaoId && l.ordens !== null ? l.ordens : '-')} />
        </ListTable>
      </AppDialog>
      {/* Outside the dialog: a confirmation inside it would sit under the dialog's own mask. */}
      <ConfirmSimNao target={confirmar} message={MESSAGES.confirmarRepasseDefinitivo} onConfirm={() => void gerar('definitivo')} onClose={() => setConfirmar(null)} />
    </>
  );
}
