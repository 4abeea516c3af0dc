import '../../components/page-layout.css';
import { useQueryClient } from '@tanstack/react-query';
import { ROLE_LABELS, routePath, type Role, type UserType } from '@plac/shared/access';
import { clientes, users } from '@plac/shared/contracts';
import { formatCnpj, isValidCpf, MASKS, onlyDigits } from '@plac/shared/domain';
import { message, MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { InputMask } from 'primereact/inputmask';
import { InputText } from 'primereact/inputtext';
import { RadioButton } from 'primereact/radiobutton';
import { useMemo, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { apiQueryKey, useApiMutation, useApiQuery, useServerFieldErrors } from '../../lib/api';
import { UF_OPTIONS } from '../../lib/opcoes';
import { toast } from '../../lib/toast';
import { errorId, FormField } from './FormField';
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

function Loading() {
  return (
    <p role="status">
      <i className="pi pi-spin pi-spinner" aria-hidden="true" /> Carregando...
    </p>
  );
}

export default function UserFormPage() {
  const { id = NEW_USER_ID } = useParams();
  const creating = id === NEW_USER_ID;
  const navigate = useNavigate();
  // Always read the user afresh: the form starts from this answer and must not start from an old one.
  const user = useApiQuery(users.getUser, { params: { id } }, { enabled: !creating, refetchOnMount: 'always' });

  if (creating) return <UserForm key={NEW_USER_ID} user={null} />;
  if (!user.isFetchedAfterMount) return <Loading />;
  if (!user.data) {
    // The reason ('Recurso não encontrado', ...) is already a toast.
    return (
      <>
        <h1 className="app-page-title">Editar Usuário</h1>
        <p>{MESSAGES.recursoNaoEncontrado}</p>
        <Button type="button" label="Voltar" icon="pi pi-arrow-left" severity="secondary" outlined onClick={() => navigate(routePath('user-list'))} />
      </>
    );
  }
  return <UserForm key={id} user={user.data} />;
}

function UserForm({ user }: { user: User | null }) {
  const creating = user === null;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form, setForm] = useState(() => initialState(user));
  const [submitted, setSubmitted] = useState(false);
  const [cpfInvalid, setCpfInvalid] = useState(false);

  const roles = useApiQuery(users.listRoles, {});
  const clientList = useApiQuery(clientes.allClientes, {}, { enabled: form.tipo_usuario === 'C' });
  const create = useApiMutation(users.createUser);
  const update = useApiMutation(users.updateUser);
  const saving = create.isPending || update.isPending;
  // A field's server messages (a duplicate CPF, ...) go when the field changes.
  const server = useServerFieldErrors(creating ? create.error : update.error);
  const saveError = server.error;

  const held = useMemo(() => new Set(user?.roles.map((r) => r.slug) ?? []), [user]);
  const offeredRoles = (roles.data ?? []).filter(
    (r) => r.tipo_usuario === form.tipo_usuario && (!AUTOMATIC_ROLES.includes(r.slug) || held.has(r.slug)),
  );
  const clienteOptions = useMemo(
    () => (clientList.data ?? []).map((c) => ({ value: c.id, label: `${c.razao_social} — ${formatCnpj(c.cnpj)}` })),
    [clientList.data],
  );
  const cliente = clientList.data?.find((c) => c.id === form.cliente_id);
  const ufOptions = UF_OPTIONS;

  const missing = new Set(submitted ? missingFields(form, creating) : []);
  const requiredMessage = (field: FieldName) => (missing.has(field) ? message('campoObrigatorio', { field: LABELS[field] }) : null);
  const invalid = (field: FieldName) => missing.has(field) || (saveError?.fieldErrors?.[field]?.length ?? 0) > 0;
  const inputClass = (field: FieldName) => (invalid(field) ? 'p-invalid' : undefined);

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => {
    server.clear(key);
    setForm((f) => ({ ...f, [key]: value }));
  };

  function changeTipo(tipo: UserType) {
    server.clear('tipo_usuario');
    // Changing the user type clears the selected permissions.
    setForm((f) => (f.tipo_usuario === tipo ? f : { ...f, tipo_usuario: tipo, roles: [] }));
  }

  function toggleRole(role: Role, checked: boolean) {
    server.clear('roles');
    setForm((f) => ({ ...f, roles: checked ? [...f.roles, role] : f.roles.filter((r) => r !== role) }));
  }

  function checkCpf(): boolean {
    const bad = creating && form.cpf !== '' && !isValidCpf(form.cpf);
    setCpfInvalid(bad);
    return !bad;
  }

  function back() {
    navigate(routePath('user-list'));
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    const cpfOk = checkCpf();
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
    toast.success(MESSAGES.registroSalvo);
    queryClient.removeQueries({ queryKey: apiQueryKey(users.getUser) });
    void queryClient.invalidateQueries({ queryKey: apiQueryKey(users.listUsers) });
    back();
  }

  const describedBy = (field: string) => ({ 'aria-describedby': errorId(field) });

  return (
    <>
      <h1 className="app-page-title">{creating ? 'Novo Usuário' : 'Editar Usuário'}</h1>
      <form className="page-panel" onSubmit={onSubmit} noValidate aria-label="Usuário">
        <div className="page-grid">
          <FormField id="name" label={LABELS.name} required field="name" error={saveError} message={requiredMessage('name')}>
            <InputText
              id="name"
              maxLength={100}
              value={form.name}
              onChange={(e) => set('name', e.target.value)}
              className={inputClass('name')}
              aria-required
              {...describedBy('name')}
            />
          </FormField>

          <FormField id="email" label={LABELS.email} required field="email" error={saveError} message={requiredMessage('email')}>
            <InputText
              id="email"
              type="email"
              maxLength={100}
              value={form.email}
              onChange={(e) => set('email', e.target.value)}
              className={inputClass('email')}
              aria-required
              {...describedBy('email')}
            />
          </FormField>

          <FormField
            id="cpf"
            label={LABELS.cpf}
            required={creating}
            field="cpf"
            error={saveError}
            message={requiredMessage('cpf') ?? (cpfInvalid ? MESSAGES.cpfInvalido : null)}
          >
            <InputMask
              id="cpf"
              mask={MASKS.cpf}
              unmask
              autoClear={false}
              value={form.cpf}
              disabled={!creating}
              onChange={(e) => {
                set('cpf', onlyDigits(e.value ?? ''));
                if (cpfInvalid) setCpfInvalid(false);
              }}
              onBlur={checkCpf}
              className={invalid('cpf') || cpfInvalid ? 'p-invalid' : undefined}
              aria-required={creating}
              {...describedBy('cpf')}
            />
          </FormField>

          <FormField id="telefone" label={LABELS.telefone} field="telefone" error={saveError}>
            <InputText
              id="telefone"
              type="tel"
              maxLength={20}
              value={form.telefone}
              onChange={(e) => set('telefone', e.target.value)}
              {...describedBy('telefone')}
            />
          </FormField>

          <FormField
            id="tipo_usuario"
            label={LABELS.tipo_usuario}
            required
            group
            field="tipo_usuario"
            error={saveError}
            message={requiredMessage('tipo_usuario')}
          >
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
            <FormField id="situacao" label={LABELS.situacao} required field="situacao" error={saveError}>
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
            <FormField
              id="cliente_id"
              label={LABELS.cliente_id}
              required
              wide
              field="cliente_id"
              error={saveError}
              message={requiredMessage('cliente_id')}
            >
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
            <FormField id="uf" label={LABELS.uf} required field="uf" error={saveError} message={requiredMessage('uf')}>
              <Dropdown
                inputId="uf"
                options={ufOptions}
                value={form.uf}
                onChange={(e) => set('uf', (e.value as string | undefined) ?? null)}
                filter
                filterBy="label"
                placeholder="Selecione a UF"
                invalid={invalid('uf')}
                aria-required
              />
            </FormField>
          )}

          {form.tipo_usuario && (
            <FormField
              id="roles"
              label={LABELS.roles}
              required
              group
              wide
              field="roles"
              error={saveError}
              message={requiredMessage('roles')}
            >
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
        </div>

        {user && (
          <AuditFooter criadoEm={user.created_at} alteradoEm={user.updated_at} alteradoPor={user.updated_by} />
        )}
        {user && <SecondFactorAdmin userId={user.id} />}

        <div className="page-actions">
          <Button type="submit" label="Salvar" icon="pi pi-check" loading={saving} />
          <Button type="button" label="Voltar" icon="pi pi-arrow-left" severity="secondary" outlined onClick={back} />
        </div>
      </form>
    </>
  );
}
