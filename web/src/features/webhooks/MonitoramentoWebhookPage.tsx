import '../../components/page-layout.css';
import { IDLE_QUERY, ListPage, ListTable } from '../../components/ListPage';
import { webhooks } from '@plac/shared/contracts';
import { message } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Calendar } from 'primereact/calendar';
import { Column } from 'primereact/column';
import { useCallback, useMemo, useState } from 'react';
import { AppDialog } from '../../components/AppDialog';
import { ConfirmSimNao } from '../../components/ConfirmSimNao';
import { FieldError } from '../../components/FieldError';
import { useApiMutation, useApiQuery } from '../../lib/api';
import { cursorPage, useCursorPages } from '../../lib/cursor-pages';
import { formatDateTime } from '../../lib/format';
import { nomeDoClienteDoUsuario, useCurrentUser } from '../../lib/session';
import { toast } from '../../lib/toast';
import { AndamentoDoJob } from './AndamentoDoJob';
import { EnderecosPausados } from './EnderecosPausados';
import { useOpcoesDeClientes } from '../../lib/opcoes-clientes';
import { ClienteFilter } from '../../components/ClienteFilter';

/**
 * monitoramento-webhook (sefaz_admin, cliente_monitoramento; spec 3 §2.15): the webhook deliveries
 * still pending or failed in a period, 10 a page (paged on the server by cursor; a page may come
 * short when the period holds mostly delivered ones, with 'Próxima' still there). The administrator filters by client ('Todos' by
 * default); a monitoring user has its own client fixed (the server enforces it too). Each row opens
 * the body sent (formatted JSON, dialog at most 500px wide) and the attempts' history, and a failed
 * one can be replayed; every failed delivery of the period can be replayed at once, after a confirmation.
 * Paused endpoints show above the filters with 'Retomar envio' (EnderecosPausados).
 */

const POR_PAGINA = 10;
const TODOS = '';
type Mensagem = (typeof webhooks.mensagensWebhook)['response']['_zod']['output']['items'][number];

/** A calendar day as the API reads it (YYYY-MM-DD, local day). */
function diaIso(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function diasAtras(n: number): Date {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  d.setDate(d.getDate() - n);
  return d;
}

const SITUACAO: Record<Mensagem['situacao'], string> = { PENDENTE: 'Pendente', FALHA: 'Falha', ENTREGUE: 'Entregue', PAUSADA: 'Retida (envio pausado)' };

/** The body as indented JSON (as it came when it is not JSON). */
export function jsonFormatado(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function Tentativas({ deliveryId }: { deliveryId: string }) {
  const historico = useApiQuery(webhooks.tentativasWebhook, { params: { deliveryId } });
  return (
    <ListTable
      label="Tentativas de entrega"
      rows={historico.data}
      dataKey="numero"
      query={historico}
      paging={{ kind: 'none' }}
    >
      <Column header="Tentativa" field="numero" />
      <Column header="Instante" body={(t: { instante: string }) => formatDateTime(t.instante)} />
      <Column header="Resultado" body={(t: { status: number | null; erro: string | null }) => (t.status !== null ? `HTTP ${t.status}` : (t.erro ?? ''))} />
      <Column header="Latência" body={(t: { latenciaMs: number }) => `${t.latenciaMs} ms`} />
    </ListTable>
  );
}

export default function MonitoramentoWebhookPage() {
  const user = useCurrentUser();
  const admin = user.roles.includes('sefaz_admin');
  const [cliente, setCliente] = useState<string>(admin ? TODOS : (user.clienteId ?? ''));
  const [inicio, setInicio] = useState<Date | null>(() => diasAtras(6));
  const [fim, setFim] = useState<Date | null>(() => diasAtras(0));
  const [corpo, setCorpo] = useState<Mensagem | null>(null);
  const [historico, setHistorico] = useState<Mensagem | null>(null);
  const [confirmar, setConfirmar] = useState<true | null>(null);

  const faltando = !inicio ? message('dataInicioObrigatoria') : !fim ? message('dataFimObrigatoria') : null;
  const periodo = { ...(admin && cliente ? { idCliente: cliente } : {}), dataInicial: inicio ? diaIso(inicio) : '', dataFinal: fim ? diaIso(fim) : '' };
  const pages = useCursorPages(periodo, POR_PAGINA);
  const lista = useApiQuery(
    webhooks.mensagensWebhook,
    { query: { ...periodo, ...cursorPage(pages) } },
    { enabled: faltando === null },
  );
  const { opcoes: opcoesDeClientes } = useOpcoesDeClientes(admin, 'id');
  const clienteOptions = useMemo(
    () =>
      admin
        ? [{ value: TODOS, label: 'Todos' }, ...opcoesDeClientes]
        : [{ value: user.clienteId ?? '', label: user.razaoSocial || lista.data?.items[0]?.razaoSocial || nomeDoClienteDoUsuario(user) }],
    [admin, opcoesDeClientes, lista.data, user],
  );

  const reenviar = useApiMutation(webhooks.reenviarWebhook, {
    onSuccess: (r) => {
      toast.success(r.message);
      void lista.refetch();
    },
  });
  // Replay-all is a job (202): followed by AndamentoDoJob until it ends, then the list is read again.
  const [jobReenvio, setJobReenvio] = useState<string | null>(null);
  const reenviarFalhas = useApiMutation(webhooks.reenviarFalhasWebhook, {
    onSuccess: (r) => {
      setJobReenvio(r.jobId);
      toast.success(message('webhookReenvioIniciado'));
    },
  });
  const refetchLista = lista.refetch;
  const aoConcluirReenvio = useCallback(() => void refetchLista(), [refetchLista]);

  // The filters apply as they change (no Pesquisar): the period and the client are the list's query.
  const filters = (
    <>
      <EnderecosPausados idCliente={admin ? cliente || undefined : user.clienteId} onRetomado={() => void lista.refetch()} />
      <div className="page-panel">
        <div className="page-grid">
          <ClienteFilter id="webhook-cliente" options={clienteOptions} value={cliente} onChange={(v) => setCliente(v ?? TODOS)} admin={admin} />
          <div className="page-field">
            <label htmlFor="webhook-inicio">Data Início</label>
            <Calendar inputId="webhook-inicio" value={inicio} onChange={(e) => { setInicio(e.value instanceof Date ? e.value : null); }} dateFormat="dd/mm/yy" showIcon />
          </div>
          <div className="page-field">
            <label htmlFor="webhook-fim">Data Fim</label>
            <Calendar inputId="webhook-fim" value={fim} onChange={(e) => { setFim(e.value instanceof Date ? e.value : null); }} dateFormat="dd/mm/yy" showIcon />
          </div>
        </div>
        <FieldError error={lista.error} field="webhook" messages={faltando ? [faltando] : []} />
        {jobReenvio && <AndamentoDoJob key={jobReenvio} jobId={jobReenvio} titulo="Reenvio das mensagens com falha" onConcluido={aoConcluirReenvio} />}
        <div className="page-actions">
          <Button type="button" label="Reenviar todas com falha" icon="pi pi-replay" disabled={faltando !== null || reenviarFalhas.isPending} onClick={() => setConfirmar(true)} />
        </div>
      </div>
    </>
  );

  return (
    <>
      <ListPage
        title="Monitoramento de Webhook"
        filters={filters}
        label="Mensagens de webhook"
        rows={lista.data?.items}
        dataKey="deliveryId"
        query={faltando === null ? lista : IDLE_QUERY}
        paging={{ kind: 'cursor', pages, nextCursor: lista.data?.nextCursor, label: 'Paginação de mensagens de webhook' }}
      >
        <Column header="Razão Social" body={(m: Mensagem) => m.razaoSocial || m.clienteId} />
        <Column header="Data de Criação" body={(m: Mensagem) => formatDateTime(m.dataCriacao)} />
        <Column header="Descrição" field="descricao" />
        <Column header="Tentativas" field="tentativas" />
        <Column header="Última Tentativa" body={(m: Mensagem) => (m.ultimaTentativa ? formatDateTime(m.ultimaTentativa) : '')} />
        <Column header="Situação" body={(m: Mensagem) => SITUACAO[m.situacao]} />
        <Column
          header="Ações"
          body={(m: Mensagem) => (
            <div className="page-row-actions">
              <Button type="button" icon="pi pi-code" text aria-label={`Ver corpo da mensagem ${m.descricao}`} onClick={() => setCorpo(m)} />
              <Button type="button" icon="pi pi-history" text aria-label={`Ver tentativas da mensagem ${m.descricao}`} onClick={() => setHistorico(m)} />
              <Button
                type="button"
                icon="pi pi-replay"
                text
                aria-label={`Reenviar a mensagem ${m.descricao}`}
                disabled={m.situacao !== 'FALHA' || reenviar.isPending}
                onClick={() => reenviar.mutate({ params: { deliveryId: m.deliveryId } })}
              />
            </div>
          )}
        />
      </ListPage>

      <AppDialog header="Corpo da mensagem" visible={corpo !== null} onHide={() => setCorpo(null)} style={{ width: '90vw', maxWidth: '500px' }}>
        <pre className="webhook-json" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {corpo ? jsonFormatado(corpo.body) : ''}
        </pre>
      </AppDialog>
      <AppDialog header="Tentativas de entrega" visible={historico !== null} onHide={() => setHistorico(null)} style={{ width: '90vw', maxWidth: '640px' }}>
        {historico && <Tentativas deliveryId={historico.deliveryId} />}
      </AppDialog>
      <ConfirmSimNao
        target={confirmar}
        message="Reenviar todas as mensagens com falha do período?"
        onConfirm={() => {
          setConfirmar(null);
          reenviarFalhas.mutate({ body: periodo });
        }}
        onClose={() => setConfirmar(null)}
      />
    </>
  );
}
