import '../../components/page-layout.css';
import { ROLE_LABELS, routePath, type Role, type UserType } from '@plac/shared/access';
import { clientes, users } from '@plac/shared/contracts';
import { formatCnpj, isValidCpf, MASKS, onlyDigits } from '@plac/shared/domain';
import { message, MESSAGES } from '@plac/shared/messages';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { RadioButton } from 'primereact/radiobutton';
import { useMemo, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useApiMutation, useApiQuery, useServerFieldErrors } from '../../lib/api';
import { toast } from '../../lib/toast';
import { describedBy, FormField } from '../../components/FormField';
import { FormPage } from '../../components/FormPage';
import { FormActions } from '../../components/FormActions';
import { Loading, RecordGate } from '../../components/RecordStatus';
import { TextField } from '../../components/TextField';
import { UfDropdown } from '../../components/UfDropdown';
import { UnmaskedInput } from '../../components/UnmaskedInput';
import { useFormFields, useValidityCheck } from '../../lib/form-fields';
import { useRecordSaved } from '../../lib/record-saved';
import { AUTOMATIC_ROLES, SITUACAO_OPTIONS, TIPO_OPTIONS, type Situacao, type User } from './model';
import { SecondFactorAdmin } from './SecondFactorAdmin';
import { AuditFooter } from '../../components/AuditFooter';

/**
 * user-form, id 'new' or the user's id. Sefaz users choose permissions and
 * UF; client users choose a client and permissions. Changing the type clears the permissions; the CPF
 * cannot change once created; the status selector appears only when editing.
 */

export const NEW_USER_ID = 'new';

/** ours: the server gives the avaliacao role to a user of a client Em Avaliação. */
export const AVISO_AVALIACAO = `Este cliente está Em Avaliação: ao salvar, o usuário receberá a permissão ${ROLE_LABELS.avaliacao}.`;

interface FormState {
  name: string;
  email: string;
  /** Digits only. */
  cpf: string;
  telefone: string;
  tipo_usuario: UserType | null;
  roles: Role[];
  uf: string | null;
  cliente_id: string | null;
  situacao: Situacao;
}

type FieldName = Exclude<keyof FormState, 'telefone'>;

/** The labels of the fields, for the required message 'O campo {field} é obrigatório.'. */
const LABELS: Record<FieldName | 'telefone', string> = {
  name: 'Nome',
  email: 'E-mail',
  cpf: 'CPF',
  telefone: 'Telefone',
  tipo_usuario: 'Tipo',
  roles: 'Permissões',
  uf: 'UF',
  cliente_id: 'Cliente',
  situacao: 'Situação',
};

function initialState(user: User | null): FormState {
  return {
    name: user?.name ?? '',
    email: user?.email ?? '',
    cpf: onlyDigits(user?.cpf ?? ''),
    telefone: user?.telefone ?? '',
    tipo_usuario: user?.tipo_usuario ?? null,
    roles: user?.roles.map((r) => r.slug) ?? [],
    uf: user?.uf ?? null,
    cliente_id: user?.cliente_id ?? null,
    situacao: user?.situacao ?? 'A',
  };
}

/** The required fields left empty: the type decides between UF (Sefaz) and client (Cliente). */
function missingFields(form: FormState, creating: boolean): FieldName[] {
  const missing: FieldName[] = [];
  if (form.name.trim() === '') missing.push('name');
  if (form.email.trim() === '') missing.push('email');
  if (creating && form.cpf === '') missing.push('cpf');
  if (!form.tipo_usuario) missing.push('tipo_usuario');
  if (form.roles.length === 0) missing.push('roles');
  if (form.tipo_usuario === 'S' && !form.uf) missing.push('uf');
  if (form.tipo_usuario === 'C' && !form.cliente_id) missing.push('cliente_id');
  return missing;
}

export default function UserFormPage() {
  const { id = NEW_USER_ID } = useParams();
  const creating = id === NEW_USER_ID;
  const navigate = useNavigate();
  // Always read the user afresh: the form starts from this answer and must not start from an old one.
  const user = useApiQuery(users.getUser, { params: { id } }, { enabled: !creating, refetchOnMount: 'always' });

  if (creating) return <UserForm key={NEW_USER_ID} user={null} />;
  return (
    <RecordGate query={user} title="Editar Usuário" onBack={() => navigate(routePath('user-list'))}>
      {(found) => <UserForm key={id} user={found} />}
    </RecordGate>
  );
}

function UserForm({ user }: { user: User | null }) {
  const creating = user === null;
  const navigate = useNavigate();
  const [submitted, setSubmitted] = useState(false);

  const create = useApiMutation(users.createUser);
  const update = useApiMutation(users.updateUser);
  const saving = create.isPending || update.isPending;
  const server = useServerFieldErrors(creating ? create.error : update.error);
  const saveError = server.error;
  const { form, setForm, set } = useFormFields(() => initialState(user), server);
  // The CPF cannot change once created: only a new user's is checked.
  const cpf = useValidityCheck(form.cpf, isValidCpf, creating);
  const roles = useApiQuery(users.listRoles, {});
  const clientList = useApiQuery(clientes.allClientes, {}, { enabled: form.tipo_usuario === 'C' });

  const held = useMemo(() => new Set(user?.roles.map((r) => r.slug) ?? []), [user]);
  const offeredRoles = (roles.data ?? []).filter(
    (r) => r.tipo_usuario === form.tipo_usuario && (!AUTOMATIC_ROLES.includes(r.slug) || held.has(r.slug)),
  );
  const clienteOptions = useMemo(
    () => (clientList.data ?? []).map((c) => ({ value: c.id, label: `${c.razao_social} — ${formatCnpj(c.cnpj)}` })),
    [clientList.data],
  );
  const cliente = clientList.data?.find((c) => c.id === form.cliente_id);

  const missing = new Set(submitted ? missingFields(form, creating) : []);
  const requiredMessage = (field: FieldName) => (missing.has(field) ? message('campoObrigatorio', { field: LABELS[field] }) : null);
  const invalid = (field: FieldName) => missing.has(field) || (saveError?.fieldErrors?.[field]?.length ?? 0) > 0;
  const inputClass = (field: FieldName) => (invalid(field) ? 'p-invalid' : undefined);

  function changeTipo(tipo: UserType) {
    server.clear('tipo_usuario');
    // Changing the user type clears the selected permissions.
    setForm((f) => (f.tipo_usuario === tipo ? f : { ...f, tipo_usuario: tipo, roles: [] }));
  }

  function toggleRole(role: Role, checked: boolean) {
    server.clear('roles');
    setForm((f) => ({ ...f, roles: checked ? [...f.roles, role] : f.roles.filter((r) => r !== role) }));
  }

  function back() {
    navigate(routePath('user-list'));
  }
  const saved = useRecordSaved(users.getUser, users.listUsers, back);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    const cpfOk = cpf.check();
    if (missingFields(form, creating).length > 0) {
      toast.error(MESSAGES.camposObrigatorios);
      return;
    }
    if (!cpfOk || !form.tipo_usuario) return;

    const common = {
      name: form.name.trim(),
      email: form.email.trim(),
      tipo_usuario: form.tipo_usuario,
      roles: form.roles,
      ...(form.tipo_usuario === 'S' && form.uf ? { uf: form.uf } : {}),
      ...(form.tipo_usuario === 'C' && form.cliente_id ? { cliente_id: form.cliente_id } : {}),
    };
    const telefone = form.telefone.trim();
    try {
      if (user) {
        // Sent even when empty, so that clearing the telephone clears it.
        await update.mutateAsync({ params: { id: user.id }, body: { ...common, telefone, situacao: form.situacao } });
      } else {
        await create.mutateAsync({ body: { ...common, cpf: form.cpf, ...(telefone ? { telefone } : {}) } });
      }
    } catch {
      // Shown already: the toast, and the field messages beside the fields.
      return;
    }
    saved();
  }

  /** A required field of the form: its label, its server messages and the submission's 'obrigatório'. */
  const campo = (key: FieldName) =>
    ({ layout: 'page', id: key, label: LABELS[key], required: true, field: key, error: saveError, messages: [requiredMessage(key)] }) as const;

  /** The text fields: a required one is marked when the submission found it empty or the server refused it. */
  const textField = (key: 'name' | 'email' | 'telefone', input: { type?: string; maxLength: number }) => (
    <TextField
      {...(key === 'telefone' ? ({ layout: 'page', id: key, label: LABELS[key], field: key, error: saveError } as const) : campo(key))}
      {...input}
      value={form[key]}
      onChange={(e) => set(key, e.target.value)}
      className={key === 'telefone' ? undefined : inputClass(key)}
    />
  );

  return (
    <FormPage
      title={creating ? 'Novo Usuário' : 'Editar Usuário'}
      label="Usuário"
      onSubmit={onSubmit}
      footer={
        <>
          {user && (
            <AuditFooter criadoEm={user.created_at} alteradoEm={user.updated_at} alteradoPor={user.updated_by} />
          )}
          {user && <SecondFactorAdmin userId={user.id} />}
          <FormActions loading={saving} onBack={back} />
        </>
      }
    >
      {textField('name', { maxLength: 100 })}
      {textField('email', { type: 'email', maxLength: 100 })}

      {/* Required, and checked, only when creating: the CPF cannot change afterwards. */}
      <FormField {...campo('cpf')} required={creating} messages={[requiredMessage('cpf') ?? (cpf.invalid ? MESSAGES.cpfInvalido : null)]}>
        <UnmaskedInput
          id="cpf"
          mask={MASKS.cpf}
          normalize={onlyDigits}
          value={form.cpf}
          disabled={!creating}
          onValueChange={(digits) => {
            set('cpf', digits);
            cpf.changed();
          }}
          onBlur={cpf.check}
          className={invalid('cpf') || cpf.invalid ? 'p-invalid' : undefined}
          aria-required={creating}
          {...describedBy('cpf')}
        />
      </FormField>

      {textField('telefone', { type: 'tel', maxLength: 20 })}

      <FormField {...campo('tipo_usuario')} group>
        <div className="page-options" role="radiogroup" aria-label={LABELS.tipo_usuario} aria-required>
          {TIPO_OPTIONS.map((o) => (
            <div className="page-option" key={o.value}>
              <RadioButton
                inputId={`tipo-${o.value}`}
                name="tipo_usuario"
                value={o.value}
                checked={form.tipo_usuario === o.value}
                onChange={() => changeTipo(o.value)}
                invalid={invalid('tipo_usuario')}
              />
              <label htmlFor={`tipo-${o.value}`}>{o.label}</label>
            </div>
          ))}
        </div>
      </FormField>

      {!creating && (
        <FormField layout="page" id="situacao" label={LABELS.situacao} required field="situacao" error={saveError}>
          <Dropdown
            inputId="situacao"
            options={[...SITUACAO_OPTIONS]}
            value={form.situacao}
            onChange={(e) => set('situacao', e.value as Situacao)}
            aria-required
          />
        </FormField>
      )}

      {form.tipo_usuario === 'C' && (
        <FormField {...campo('cliente_id')} wide>
          <Dropdown
            inputId="cliente_id"
            options={clienteOptions}
            value={form.cliente_id}
            onChange={(e) => set('cliente_id', (e.value as string | undefined) ?? null)}
            filter
            filterBy="label"
            placeholder="Selecione o cliente"
            emptyMessage={MESSAGES.nenhumRegistro}
            emptyFilterMessage={MESSAGES.nenhumRegistro}
            loading={clientList.isFetching}
            invalid={invalid('cliente_id')}
            aria-required
          />
        </FormField>
      )}

      {form.tipo_usuario === 'S' && (
        <FormField {...campo('uf')}>
          <UfDropdown inputId="uf" value={form.uf} onChange={(uf) => set('uf', uf)} invalid={invalid('uf')} />
        </FormField>
      )}

      {form.tipo_usuario && (
        <FormField {...campo('roles')} group wide>
          <div className="page-options">
            {roles.isPending && <Loading />}
            {offeredRoles.map((r) => (
              <div className="page-option" key={r.slug}>
                <Checkbox
                  inputId={`role-${r.slug}`}
                  name="roles"
                  value={r.slug}
                  checked={form.roles.includes(r.slug)}
                  onChange={(e) => toggleRole(r.slug, e.checked === true)}
                  invalid={invalid('roles')}
                />
                <label htmlFor={`role-${r.slug}`}>{r.label}</label>
              </div>
            ))}
          </div>
        </FormField>
      )}

      {form.tipo_usuario === 'C' && cliente?.situacao === 'E' && (
        <p className="page-note page-field-wide" role="note">
          <i className="pi pi-info-circle" aria-hidden="true" />
          {AVISO_AVALIACAO}
        </p>
      )}
    </FormPage>
  );
}
