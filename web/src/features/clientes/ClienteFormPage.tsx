import '../../components/page-layout.css';
import './clientes.css';
import { routePath } from '@plac/shared/access';
import { clientes } from '@plac/shared/contracts';
import {
  addDays,
  formatCnpj,
  formatDate,
  formatDateTime,
  onlyDigits,
  situacoesPermitidasCliente,
  type ClienteSituacao,
  type TipoCliente,
} from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { Calendar } from 'primereact/calendar';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { TabPanel, TabView } from 'primereact/tabview';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { reportApiError, useApiMutation, useApiQuery, useServerFieldErrors } from '../../lib/api';
import { toTransportDate } from '../../lib/format';
import { toast } from '../../lib/toast';
import { enderecoBody } from '../../components/endereco-body';
import { EnderecoFields, type EnderecoValues } from '../../components/EnderecoFields';
import { Field } from '../../components/Field';
import { describedBy } from '../../components/FormField';
import { FormActions } from '../../components/FormActions';
import { RecordGate } from '../../components/RecordStatus';
import { useFormFields } from '../../lib/form-fields';
import { useRecordSaved } from '../../lib/record-saved';
import { maskTelefone } from '../../lib/mask';
import { LABELS } from '../../lib/rotulos-cliente';
import { CATEGORIA_OPTIONS, SITUACAO_OPTIONS, TIPO_OPTIONS, type Categoria, type Cliente } from './model';
import { WebhookTab } from './WebhookTab';

/**
 * The client form, two tabs: 'Dados Pessoais' and
 * 'Monitoramento'. The administrator edits any client at cliente/:id (status, category and the
 * password-login period included); a client user edits its own company at cliente/edit/:id, without
 * changing the type, and goes to the dashboard after saving.
 */

export type ClienteFormMode = 'admin' | 'cliente';

/** The address and contact fields (EnderecoFields), the type and the administrator's own fields. */
interface FormState extends EnderecoValues {
  tipo_cliente: TipoCliente;
  situacao: ClienteSituacao;
  categoria: Categoria | null;
  inicio_sem_certificado: Date | null;
}

type RequiredField = 'razao_social' | 'logradouro' | 'numero' | 'bairro' | 'uf' | 'cidade' | 'cep' | 'telefone' | 'nome_responsavel' | 'email';
const REQUIRED: readonly RequiredField[] = ['razao_social', 'logradouro', 'numero', 'bairro', 'uf', 'cidade', 'cep', 'telefone', 'nome_responsavel', 'email'];

/** 'YYYY-MM-DD' → the local Date a date picker shows as that day. */
function dayToDate(day: string | null): Date | null {
  const m = day ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(day) : null;
  return m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : null;
}

function initialState(c: Cliente): FormState {
  return {
    razao_social: c.razao_social,
    logradouro: c.logradouro ?? '',
    numero: c.numero ?? '',
    complemento: c.complemento ?? '',
    bairro: c.bairro ?? '',
    uf: c.uf,
    cidade: c.cidade ?? '',
    cep: onlyDigits(c.cep ?? ''),
    tipo_cliente: c.tipo_cliente,
    telefone: maskTelefone(c.telefone ?? ''),
    nome_responsavel: c.nome_responsavel ?? '',
    email: c.email,
    situacao: c.situacao,
    categoria: c.categoria,
    inicio_sem_certificado: dayToDate(c.inicio_sem_certificado),
  };
}

function missingFields(form: FormState): RequiredField[] {
  return REQUIRED.filter((key) => {
    const value = form[key];
    return value === null || value.trim() === '';
  });
}

/** The page of both routes; `mode` says whose it is. */
export function ClienteFormView({ mode }: { mode: ClienteFormMode }) {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  // Always read afresh: the form starts from this answer. Its failure is shown here (below).
  const cliente = useApiQuery(clientes.getCliente, { params: { id } }, { refetchOnMount: 'always', notify: false });
  const failure = cliente.error;
  // Another company's record (403) is the not-authorised page alone, without a toast; any other
  // failure is its toast, once, beside the not-found text.
  const forbidden = failure?.status === 403;
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (!failure || failure.isTokenError || reported.current === failure) return;
    reported.current = failure;
    if (failure.status === 403) navigate(routePath('not-authorized'), { replace: true });
    else reportApiError(failure);
  }, [failure, navigate]);

  if (forbidden) return null;
  return (
    <RecordGate query={cliente} title="Dados do Cliente" onBack={() => navigate(mode === 'admin' ? routePath('cliente-list') : routePath('dashboard'))}>
      {(found) => <ClienteForm key={found.id} cliente={found} mode={mode} />}
    </RecordGate>
  );
}

/** cliente/:id, the administrator's. */
export default function ClienteFormPage() {
  return <ClienteFormView mode="admin" />;
}

function ClienteForm({ cliente, mode }: { cliente: Cliente; mode: ClienteFormMode }) {
  const admin = mode === 'admin';
  const navigate = useNavigate();
  const [submitted, setSubmitted] = useState(false);
  const [tab, setTab] = useState(0);
  const prazo = useApiQuery(clientes.prazoSemCertificado, {}, { enabled: admin });
  const update = useApiMutation(clientes.updateCliente);
  // A field's server messages go when the field changes.
  const server = useServerFieldErrors(update.error);
  const error = server.error;
  const { form, set, change } = useFormFields(() => initialState(cliente), server);

  const situacaoOptions = useMemo(() => {
    // In the domain's order.
    return situacoesPermitidasCliente(cliente.situacao).flatMap((value) => SITUACAO_OPTIONS.filter((o) => o.value === value));
  }, [cliente.situacao]);
  const situacaoDisabled = !admin || cliente.situacao === 'C';

  const missing = new Set(submitted ? missingFields(form) : []);

  const inicio = form.inicio_sem_certificado ? toTransportDate(form.inicio_sem_certificado) : null;
  let expiry = '';
  if (inicio && inicio === cliente.inicio_sem_certificado && cliente.prazo_sem_certificado) expiry = cliente.prazo_sem_certificado;
  else if (inicio && prazo.data) expiry = addDays(inicio, prazo.data.dias);

  function leave() {
    navigate(admin ? routePath('cliente-list') : routePath('dashboard'));
  }
  const saved = useRecordSaved(clientes.getCliente, clientes.listClientes, leave);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (missingFields(form).length > 0 || !form.uf) {
      toast.error(MESSAGES.camposObrigatorios);
      return;
    }
    const body = {
      // The complement is sent even when empty, so that clearing it clears it.
      ...enderecoBody(form, form.uf),
      // A client user cannot change the type.
      tipo_cliente: admin ? form.tipo_cliente : cliente.tipo_cliente,
      ...(admin ? { situacao: form.situacao, categoria: form.categoria, inicio_sem_certificado: inicio } : {}),
    };
    try {
      await update.mutateAsync({ params: { id: cliente.id }, body });
    } catch {
      // Shown already: the toast, and the field messages beside the fields.
      return;
    }
    saved();
  }

  return (
    <>
      <h1 className="app-page-title">Dados do Cliente</h1>
      <TabView activeIndex={tab} onTabChange={(e) => setTab(e.index)}>
        <TabPanel header="Dados Pessoais">
          <form className="page-panel" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Dados Pessoais">
            <div className="page-grid">
              <Field id="cnpj" label={LABELS.cnpj}>
                <InputText id="cnpj" value={formatCnpj(cliente.cnpj)} readOnly disabled />
              </Field>

              <Field id="tipo_cliente" label={LABELS.tipo_cliente} required error={error}>
                <Dropdown
                  inputId="tipo_cliente"
                  options={[...TIPO_OPTIONS]}
                  value={form.tipo_cliente}
                  onChange={(e) => set('tipo_cliente', e.value as TipoCliente)}
                  disabled={!admin}
                  {...describedBy('tipo_cliente', true)}
                />
              </Field>

              <EnderecoFields values={form} onChange={change} missing={missing} error={error} />

              <Field id="situacao" label={LABELS.situacao} error={error}>
                <Dropdown
                  inputId="situacao"
                  options={situacaoDisabled ? [...SITUACAO_OPTIONS] : situacaoOptions}
                  value={form.situacao}
                  onChange={(e) => set('situacao', e.value as ClienteSituacao)}
                  disabled={situacaoDisabled}
                  {...describedBy('situacao')}
                />
              </Field>

              {admin && (
                <>
                  <Field id="categoria" label={LABELS.categoria} error={error}>
                    <Dropdown
                      inputId="categoria"
                      options={[...CATEGORIA_OPTIONS]}
                      value={form.categoria}
                      onChange={(e) => set('categoria', (e.value as Categoria | undefined) ?? null)}
                      placeholder="Selecione"
                      showClear
                      {...describedBy('categoria')}
                    />
                  </Field>

                  <Field id="inicio_sem_certificado" label={LABELS.inicio_sem_certificado} error={error}>
                    <Calendar
                      inputId="inicio_sem_certificado"
                      value={form.inicio_sem_certificado}
                      onChange={(e) => set('inicio_sem_certificado', e.value instanceof Date ? e.value : null)}
                      dateFormat="dd/mm/yy"
                      showIcon
                      showButtonBar
                      {...describedBy('inicio_sem_certificado')}
                    />
                  </Field>

                  <Field id="prazo_sem_certificado" label={LABELS.prazo_sem_certificado}>
                    <InputText id="prazo_sem_certificado" value={formatDate(expiry)} readOnly disabled />
                  </Field>
                </>
              )}
            </div>

            <dl className="page-audit">
              <div>
                <dt>Data de criação</dt>
                <dd>{formatDateTime(cliente.created_at)}</dd>
              </div>
              <div>
                <dt>Data de alteração</dt>
                <dd>{formatDateTime(cliente.updated_at)}</dd>
              </div>
              <div>
                <dt>Alterado por</dt>
                <dd>{cliente.nome_usuario ?? ''}</dd>
              </div>
            </dl>

            <FormActions loading={update.isPending} onBack={leave} />
          </form>
        </TabPanel>
        <TabPanel header="Monitoramento">
          <WebhookTab cliente={cliente} />
        </TabPanel>
      </TabView>
    </>
  );
}
