import '../../components/page-layout.css';
import { IDLE_QUERY, ListPage } from '../../components/ListPage';
import { monitoramento } from '@plac/shared/contracts';
import { formatCnpj, isValidChaveAcesso } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { InputText } from 'primereact/inputtext';
import { useMemo, useState, type FormEvent } from 'react';
import { ConfirmSimNao } from '../../components/ConfirmSimNao';
import { FieldError } from '../../components/FieldError';
import { useApiMutation, useApiQuery } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { nomeDoClienteDoUsuario, useCurrentUser } from '../../lib/session';
import { toast } from '../../lib/toast';
import { cursorPage, useCursorPages } from '../../lib/cursor-pages';
import { useOpcoesDeClientes } from '../../lib/opcoes-clientes';
import { ClienteFilter } from '../../components/ClienteFilter';

/**
 * monitoramento-documentos (ours, issue 16; sefaz_admin, cliente_monitoramento): the access keys a
 * client monitors, whose events (the cancellation and the others the loader stores) go to its EVENTO
 * webhook. The administrator picks the client; a monitoring user has its own fixed (the server
 * enforces it too). A key is added after the page checks it (44 characters with a valid check digit;
 * the server checks again) and removed after a confirmation. Each registration is charged as
 * 'Monitoramento de Documentos'. The list is in key order, 10 a page by default, paged by cursor
 * (a bookkeeper may monitor millions of keys: issue 36), with the client's total.
 */

const POR_PAGINA = 10;
type Chave = (typeof monitoramento.listarChavesMonitoradas)['response']['_zod']['output']['items'][number];

/** The key in groups of 4, as printed on the DANFE. */
export function chaveAgrupada(chave: string): string {
  return chave.match(/.{1,4}/g)?.join(' ') ?? chave;
}

export default function MonitoramentoDocumentosPage() {
  const user = useCurrentUser();
  const admin = user.roles.includes('sefaz_admin');
  const [cliente, setCliente] = useState<string>(admin ? '' : (user.clienteId ?? ''));
  const [nova, setNova] = useState('');
  const [erroLocal, setErroLocal] = useState<string | null>(null);
  const [remover, setRemover] = useState<Chave | null>(null);

  const escolhido = cliente !== '';
  const idCliente = admin && escolhido ? { idCliente: cliente } : {};
  const pages = useCursorPages({ cliente }, POR_PAGINA);
  const lista = useApiQuery(
    monitoramento.listarChavesMonitoradas,
    { query: { ...idCliente, ...cursorPage(pages) } },
    { enabled: escolhido },
  );
  const { opcoes: opcoesDeClientes } = useOpcoesDeClientes(admin, 'id');
  const clienteOptions = useMemo(
    () => (admin ? opcoesDeClientes : [{ value: user.clienteId ?? '', label: nomeDoClienteDoUsuario(user) }]),
    [admin, opcoesDeClientes, user],
  );

  const cadastrar = useApiMutation(monitoramento.cadastrarChaveMonitorada, {
    onSuccess: (r) => {
      toast.success(r.message);
      setNova('');
      pages.reset();
      void lista.refetch();
    },
  });
  const excluir = useApiMutation(monitoramento.removerChaveMonitorada, {
    onSuccess: (r) => {
      toast.success(r.message);
      pages.reset();
      void lista.refetch();
    },
  });

  const enviar = (e: FormEvent) => {
    e.preventDefault();
    const chave = nova.replace(/\s/g, '').toUpperCase();
    if (!chave) return setErroLocal(message('campoObrigatorio', { field: 'chave de acesso' }));
    if (!isValidChaveAcesso(chave)) return setErroLocal(message('chaveMonitoradaInvalida'));
    setErroLocal(null);
    cadastrar.mutate({ body: { ...idCliente, chave } });
  };

  // The panel adds a key to the client picked (whose keys the list shows): no search of its own.
  const filters = (
    <>
      <p>Os eventos (como o cancelamento) das chaves de acesso cadastradas aqui são enviados ao webhook da operação EVENTO do cliente.</p>
      <form className="page-panel" onSubmit={enviar} noValidate>
        <div className="page-grid">
          <ClienteFilter id="monitoramento-cliente" options={clienteOptions} value={cliente} onChange={(v) => setCliente(v ?? '')} admin={admin} placeholder="Selecione o cliente" />
          <div className="page-field">
            <label htmlFor="monitoramento-chave">Chave de Acesso</label>
            <InputText
              id="monitoramento-chave"
              value={nova}
              maxLength={60}
              inputMode="numeric"
              aria-describedby="monitoramento-chave-erro"
              aria-invalid={erroLocal !== null}
              onChange={(e) => setNova(e.target.value)}
            />
            <FieldError error={cadastrar.error} field="chave" id="monitoramento-chave-erro" messages={erroLocal ? [erroLocal] : []} />
          </div>
        </div>
        <div className="page-actions">
          <Button type="submit" label="Adicionar" icon="pi pi-plus" disabled={!escolhido || cadastrar.isPending} />
        </div>
      </form>
    </>
  );

  return (
    <>
      <ListPage
        title="Monitoramento de Documentos"
        filters={filters}
        label="Chaves monitoradas"
        rows={escolhido ? lista.data?.items : []}
        dataKey="chave"
        query={escolhido ? lista : IDLE_QUERY}
        paging={{ kind: 'cursor', pages, nextCursor: lista.data?.nextCursor, total: lista.data?.total, label: 'Paginação de chaves monitoradas' }}
      >
        <Column header="Chave de Acesso" body={(c: Chave) => <span style={{ fontFamily: 'monospace' }}>{chaveAgrupada(c.chave)}</span>} />
        <Column header="UF" field="uf" />
        <Column header="Emitente" body={(c: Chave) => formatCnpj(c.emitenteCnpj)} />
        <Column header="Modelo" field="modelo" />
        <Column header="Cadastrada em" body={(c: Chave) => formatDateTime(c.cadastradaEm)} />
        <Column header="Cadastrada por" field="cadastradaPor" />
        <Column
          header="Ações"
          body={(c: Chave) => (
            <Button type="button" icon="pi pi-trash" text severity="danger" aria-label={`Remover a chave ${c.chave}`} disabled={excluir.isPending} onClick={() => setRemover(c)} />
          )}
        />
      </ListPage>

      <ConfirmSimNao
        target={remover}
        danger
        message={remover ? message('chaveMonitoradaConfirmarRemocao', { chave: chaveAgrupada(remover.chave) }) : ''}
        onConfirm={(c) => {
          setRemover(null);
          excluir.mutate({ params: { chave: c.chave }, query: idCliente });
        }}
        onClose={() => setRemover(null)}
      />
    </>
  );
}
