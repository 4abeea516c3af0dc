import '../../components/page-layout.css';
import { ListTable } from '../../components/ListPage';
import { useQueryClient } from '@tanstack/react-query';
import { clientes } from '@plac/shared/contracts';
import { operacoesPermitidas, type OperacaoWebhook } from '@plac/shared/domain';
import { message, MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { Dropdown } from 'primereact/dropdown';
import { Password } from 'primereact/password';
import { useState, type FormEvent } from 'react';
import { AppDialog } from '../../components/AppDialog';
import { CANCELAR, FormActions } from '../../components/FormActions';
import { apiQueryKey, isApiError, useApiMutation, useApiQuery, type ApiError } from '../../lib/api';
import { useRegisterDialog } from '../../lib/dialogs';
import { toast } from '../../lib/toast';
import { Field } from '../../components/Field';
import { describedBy } from '../../components/FormField';
import { TextField } from '../../components/TextField';
import { operacaoLabel, toBase64Utf8, type Cliente, type Webhook } from './model';
import { ConfirmSimNao } from '../../components/ConfirmSimNao';
import { SegredoWebhook } from './SegredoWebhook';
import { RowActions } from '../../components/RowActions';

/**
 * The 'Monitoramento' tab: the client's webhook configurations, one per
 * operation kind. A kind is offered only while not configured (kinds 1–4 only for IMF); removing a
 * configuration frees its kind. A password needs a user and a user needs a password.
 */

/** ours: the product's text gives no wording for the removal confirmation. */
export const CONFIRMA_REMOCAO_WEBHOOK = 'Deseja remover a configuração de monitoramento?';
/** The answer's mark of a stored password (the password itself never comes back). */
const SENHA_GUARDADA = '********';

const WEBHOOK_LABELS = { operacao: 'Operação', urlWebHook: 'URL', emailWebHook: 'E-mail', usuarioWebHook: 'Usuário', senhaWebHook: 'Senha' };

interface DialogState {
  /** null: a new configuration. */
  editing: Webhook | null;
}

export function WebhookTab({ cliente }: { cliente: Cliente }) {
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const [toRemove, setToRemove] = useState<Webhook | null>(null);
  const list = useApiQuery(clientes.listWebhooks, { params: { cnpj: cliente.cnpj } });
  const remove = useApiMutation(clientes.deleteWebhook, { notify: false });
  const webhooks = list.data ?? [];

  const closeConfirm = () => setToRemove(null);
  useRegisterDialog(toRemove !== null, closeConfirm);

  const refresh = () => queryClient.invalidateQueries({ queryKey: apiQueryKey(clientes.listWebhooks) });

  async function removeWebhook(webhook: Webhook) {
    setToRemove(null);
    try {
      await remove.mutateAsync({ query: { id: webhook.id } });
    } catch (error) {
      if (!isApiError(error) || !error.isTokenError) toast.error(MESSAGES.webhookRemocaoFalhou);
      return;
    }
    toast.success(MESSAGES.webhookRemovido);
    await refresh();
  }

  const allowed = operacoesPermitidas(cliente.tipo_cliente);
  const configured = new Set(webhooks.map((w) => w.operacaoId));
  const canAdd = allowed.some((o) => !configured.has(o.id));

  const actions = (webhook: Webhook) => (
    <RowActions
      actions={[
        { icon: 'pi pi-pencil', label: 'Editar', onClick: () => setDialog({ editing: webhook }) },
        { icon: 'pi pi-trash', label: 'Remover', severity: 'danger', onClick: () => setToRemove(webhook) },
      ]}
    />
  );

  return (
    <section className="page-panel" aria-label="Configurações de monitoramento">
      <div className="page-header">
        <h2 className="app-page-title">Configurações de monitoramento</h2>
        <Button type="button" label="Adicionar" icon="pi pi-plus" disabled={!canAdd} onClick={() => setDialog({ editing: null })} />
      </div>
      <ListTable
        label="Webhooks"
        rows={webhooks}
        dataKey="id"
        query={list}
        paging={{ kind: 'none' }}
      >
        <Column header="Operação" body={(w: Webhook) => operacaoLabel(w.operacaoId)} />
        <Column field="urlWebHook" header="URL" />
        <Column header="E-mail" body={(w: Webhook) => w.emailWebHook ?? ''} />
        <Column header="Usuário" body={(w: Webhook) => w.usuarioWebHook ?? ''} />
        <Column header="Ações" body={actions} style={{ width: '7rem' }} />
      </ListTable>

      {dialog && (
        <WebhookDialog
          key={dialog.editing?.id ?? 'new'}
          cliente={cliente}
          editing={dialog.editing}
          configured={webhooks}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            void refresh();
          }}
        />
      )}

      <ConfirmSimNao target={toRemove} message={CONFIRMA_REMOCAO_WEBHOOK} onConfirm={(t) => void removeWebhook(t)} onClose={closeConfirm} danger />

      <SegredoWebhook cnpj={cliente.cnpj} />
    </section>
  );
}

interface WebhookDialogProps {
  cliente: Cliente;
  editing: Webhook | null;
  configured: readonly Webhook[];
  onClose: () => void;
  onSaved: () => void;
}

interface WebhookForm {
  operacao: OperacaoWebhook | null;
  urlWebHook: string;
  emailWebHook: string;
  usuarioWebHook: string;
  senhaWebHook: string;
}

/** The failure's own text, when the server said more than 'Serviço indisponível'. */
function detailOf(error: unknown): string | null {
  if (!isApiError(error) || error.fieldErrors || error.message === MESSAGES.servicoIndisponivel) return null;
  return error.message;
}

function WebhookDialog({ cliente, editing, configured, onClose, onSaved }: WebhookDialogProps) {
  const [form, setForm] = useState<WebhookForm>(() => ({
    operacao: (editing?.operacao as OperacaoWebhook | undefined) ?? null,
    urlWebHook: editing?.urlWebHook ?? '',
    emailWebHook: editing?.emailWebHook ?? '',
    usuarioWebHook: editing?.usuarioWebHook ?? '',
    senhaWebHook: '',
  }));
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const create = useApiMutation(clientes.createWebhook, { notify: false });
  const update = useApiMutation(clientes.updateWebhook, { notify: false });
  const saving = create.isPending || update.isPending;

  // The kinds still free (one configuration per kind), plus the one being edited.
  const taken = new Set(configured.filter((w) => w.id !== editing?.id).map((w) => w.operacaoId));
  const options = operacoesPermitidas(cliente.tipo_cliente)
    .filter((o) => !taken.has(o.id))
    .map((o) => ({ value: o.operacao, label: o.label }));

  const storedPassword = editing !== null && editing.senhaWebHook === SENHA_GUARDADA;
  const usuario = form.usuarioWebHook.trim();
  const senhaGiven = form.senhaWebHook !== '';
  const missingOperacao = submitted && !form.operacao;
  const missingUrl = submitted && form.urlWebHook.trim() === '';
  // A password needs a user, a user needs a password (a stored one counts).
  const senhaSemUsuario = submitted && senhaGiven && usuario === '';
  const usuarioSemSenha = submitted && usuario !== '' && !senhaGiven && !storedPassword;

  const set = <K extends keyof WebhookForm>(key: K, value: WebhookForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (!form.operacao || form.urlWebHook.trim() === '') {
      toast.error(MESSAGES.camposObrigatorios);
      return;
    }
    if ((senhaGiven && usuario === '') || (usuario !== '' && !senhaGiven && !storedPassword)) return;
    const body = {
      operacao: form.operacao,
      urlWebHook: form.urlWebHook.trim(),
      emailWebHook: form.emailWebHook.trim(),
      usuarioWebHook: usuario,
      // On edit an empty password keeps the stored one.
      ...(senhaGiven ? { senhaWebHook: toBase64Utf8(form.senhaWebHook) } : {}),
      clienteId: cliente.id,
      clienteCnpj: cliente.cnpj,
    };
    setFailure(null);
    try {
      if (editing) await update.mutateAsync({ body: { ...body, id: editing.id } });
      else await create.mutateAsync({ body });
    } catch (error) {
      if (isApiError(error) && error.isTokenError) return;
      toast.error(editing ? MESSAGES.webhookAtualizacaoFalhou : MESSAGES.webhookCadastroFalhou);
      setFailure(isApiError(error) ? error : null);
      return;
    }
    toast.success(editing ? MESSAGES.webhookAtualizado : MESSAGES.webhookCadastrado);
    onSaved();
  }

  const required = (missing: boolean, field: keyof typeof WEBHOOK_LABELS) =>
    missing ? message('campoObrigatorio', { field: WEBHOOK_LABELS[field] }) : null;
  const detail = detailOf(failure);

  return (
    <AppDialog
      visible
      onHide={onClose}
      header="Configuração de monitoramento"
      style={{ width: '100%', maxWidth: '500px' }}
      modal
      draggable={false}
    >
      <form className="clientes-dialog-form" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Configuração de monitoramento">
        <Field id="webhook-operacao" label={WEBHOOK_LABELS.operacao} required field="operacao" error={failure} messages={[required(missingOperacao, 'operacao')]}>
          <Dropdown
            inputId="webhook-operacao"
            options={options}
            value={form.operacao}
            onChange={(e) => set('operacao', (e.value as OperacaoWebhook | undefined) ?? null)}
            placeholder="Selecione"
            emptyMessage={MESSAGES.nenhumRegistro}
            invalid={missingOperacao}
            {...describedBy('webhook-operacao', true)}
          />
        </Field>
        <TextField
          layout="cliente"
          id="webhook-url"
          label={WEBHOOK_LABELS.urlWebHook}
          required
          field="urlWebHook"
          error={failure}
          messages={[required(missingUrl, 'urlWebHook')]}
          type="url"
          maxLength={500}
          value={form.urlWebHook}
          onChange={(e) => set('urlWebHook', e.target.value)}
          invalid={missingUrl}
        />
        <TextField
          layout="cliente"
          id="webhook-email"
          label={WEBHOOK_LABELS.emailWebHook}
          field="emailWebHook"
          error={failure}
          type="email"
          maxLength={100}
          value={form.emailWebHook}
          onChange={(e) => set('emailWebHook', e.target.value)}
        />
        <TextField
          layout="cliente"
          id="webhook-usuario"
          label={WEBHOOK_LABELS.usuarioWebHook}
          field="usuarioWebHook"
          error={failure}
          messages={[senhaSemUsuario ? MESSAGES.webhookSenhaSemUsuario : null]}
          maxLength={100}
          autoComplete="off"
          value={form.usuarioWebHook}
          onChange={(e) => set('usuarioWebHook', e.target.value)}
          invalid={senhaSemUsuario}
        />
        <Field
          id="webhook-senha"
          label={WEBHOOK_LABELS.senhaWebHook}
          field="senhaWebHook"
          error={failure}
          messages={[usuarioSemSenha ? MESSAGES.webhookUsuarioSemSenha : null]}
        >
          <Password
            inputId="webhook-senha"
            value={form.senhaWebHook}
            onChange={(e) => set('senhaWebHook', e.target.value)}
            feedback={false}
            toggleMask
            maxLength={100}
            autoComplete="new-password"
            placeholder={storedPassword ? 'Deixe em branco para manter a senha atual' : undefined}
            invalid={usuarioSemSenha}
            {...describedBy('webhook-senha')}
          />
        </Field>
        {detail && (
          <p className="clientes-inline-error" role="alert">
            {detail}
          </p>
        )}
        <FormActions loading={saving} back={CANCELAR} onBack={onClose} />
      </form>
    </AppDialog>
  );
}
