import '../../components/page-layout.css';
import './clientes.css';
import { cadastro } from '@plac/shared/contracts';
import { normalizeCnpj } from '@plac/shared/domain';
import { message, MESSAGES } from '@plac/shared/messages';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useApiMutation, useServerFieldErrors } from '../../lib/api';
import { toast } from '../../lib/toast';
import { enderecoBody } from '../../components/endereco-body';
import { EMPTY_ENDERECO, EnderecoFields, type EnderecoValues } from '../../components/EnderecoFields';
import { Field } from '../../components/Field';
import { describedBy } from '../../components/FormField';
import { CADASTRAR, FormActions, LinkAction } from '../../components/FormActions';
import { FormPage } from '../../components/FormPage';
import { useFormFields } from '../../lib/form-fields';
import { LABELS } from '../../lib/rotulos-cliente';
import { TIPO_CADASTRO_OPTIONS } from './model';
import { CaptchaCadastro, CnpjCadastro, useCaptchaCadastro, type CnpjCadastroHandle } from '../../components/RegistroCampos';

/**
 * The public client registration '/cliente/new': the company's data, the e-mail
 * with its confirmation, type ESF or IMF, and the captcha. Success goes to '/cliente/cadastroRealizado'.
 */

export const CADASTRO_REALIZADO_PATH = '/cliente/cadastroRealizado';

/** The CNPJ, the address and contact fields (EnderecoFields), the e-mail's confirmation and the type. */
interface RegisterForm extends EnderecoValues {
  /** As typed, masked. */
  cnpj: string;
  confirmacao_email: string;
  tipo_cliente: TipoCadastro | null;
}

/** Registration offers only ESF and IMF. */
type TipoCadastro = 'ESF' | 'IMF';

type Required = Exclude<keyof RegisterForm, 'complemento'> | 'recaptcha';

const EMPTY: RegisterForm = { cnpj: '', ...EMPTY_ENDERECO, confirmacao_email: '', tipo_cliente: null };

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function missingFields(form: RegisterForm, recaptcha: string | null): Required[] {
  const missing: Required[] = [];
  for (const [key, value] of Object.entries(form) as [keyof RegisterForm, RegisterForm[keyof RegisterForm]][]) {
    if (key === 'complemento') continue;
    if (value === null || (typeof value === 'string' && value.trim() === '')) missing.push(key);
  }
  if (!recaptcha) missing.push('recaptcha');
  return missing;
}

export default function ClienteRegisterPage() {
  const navigate = useNavigate();
  const [submitted, setSubmitted] = useState(false);
  const [confirmTouched, setConfirmTouched] = useState(false);
  const { ref: captchaRef, payload: recaptcha, onChange: setRecaptcha, ...captcha } = useCaptchaCadastro();
  const cnpj = useRef<CnpjCadastroHandle>(null);
  const register = useApiMutation(cadastro.registerCliente);
  const server = useServerFieldErrors(register.error);
  const error = server.error;
  const { form, set, change } = useFormFields<RegisterForm>(EMPTY, server);

  const missing = new Set(submitted ? missingFields(form, recaptcha) : []);
  if (captcha.restarted) missing.delete('recaptcha');
  const requiredMessage = (field: Required) => (missing.has(field) ? message('campoObrigatorio', { field: LABELS[field] }) : null);
  const emailMismatch =
    (confirmTouched || submitted) && form.confirmacao_email.trim() !== '' && !sameEmail(form.email, form.confirmacao_email);
  const invalid = (field: Required) => missing.has(field) || (error?.fieldErrors?.[field]?.length ?? 0) > 0;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    captcha.submitting();
    const cnpjOk = cnpj.current?.check() !== false;
    if (missingFields(form, recaptcha).length > 0) {
      toast.error(MESSAGES.camposObrigatorios);
      return;
    }
    if (!cnpjOk || !sameEmail(form.email, form.confirmacao_email) || !form.uf || !form.tipo_cliente || !recaptcha) return;
    // A registration leaves out an empty complement (the client's form sends it, to clear it).
    const { complemento, ...endereco } = enderecoBody(form, form.uf);
    try {
      await register.mutateAsync({
        body: {
          cnpj: normalizeCnpj(form.cnpj),
          ...endereco,
          ...(complemento ? { complemento } : {}),
          confirmacao_email: form.confirmacao_email.trim(),
          tipo_cliente: form.tipo_cliente,
          recaptcha,
        },
      });
    } catch {
      // Shown already (toast, field messages).
      captcha.restart();
      return;
    }
    navigate(CADASTRO_REALIZADO_PATH, { replace: true });
  }

  return (
    <main className="public-page">
      <FormPage
        title="Cadastro de Cliente"
        section={{ titleId: 'cadastro-title', className: 'clientes-register' }}
        onSubmit={(e) => void onSubmit(e)}
        footer={
          <FormActions submit={CADASTRAR} loading={register.isPending}>
            <LinkAction to="/" icon="pi pi-arrow-left" label="Voltar" />
          </FormActions>
        }
      >
        <CnpjCadastro
          ref={cnpj}
          value={form.cnpj}
          onChange={(v) => set('cnpj', v)}
          obrigatorio={requiredMessage('cnpj')}
          error={error}
          marcado={invalid('cnpj')}
        />

        <Field id="tipo_cliente" label={LABELS.tipo_cliente} required error={error} messages={[requiredMessage('tipo_cliente')]}>
          <Dropdown
            inputId="tipo_cliente"
            options={[...TIPO_CADASTRO_OPTIONS]}
            value={form.tipo_cliente}
            onChange={(e) => set('tipo_cliente', (e.value as TipoCadastro | undefined) ?? null)}
            placeholder="Selecione"
            invalid={invalid('tipo_cliente')}
            {...describedBy('tipo_cliente', true)}
          />
        </Field>

        <EnderecoFields values={form} onChange={change} missing={missing} error={error} registration />

        <Field
          id="confirmacao_email"
          label={LABELS.confirmacao_email}
          required
          error={error}
          messages={[requiredMessage('confirmacao_email'), emailMismatch ? MESSAGES.confirmacaoEmail : null]}
        >
          <InputText
            id="confirmacao_email"
            type="email"
            maxLength={100}
            autoComplete="off"
            value={form.confirmacao_email}
            onChange={(e) => set('confirmacao_email', e.target.value)}
            onBlur={() => setConfirmTouched(true)}
            invalid={invalid('confirmacao_email') || emailMismatch}
            {...describedBy('confirmacao_email', true)}
          />
        </Field>

        <CaptchaCadastro ref={captchaRef} onChange={setRecaptcha} obrigatorio={requiredMessage('recaptcha')} error={error} />
      </FormPage>
    </main>
  );
}
