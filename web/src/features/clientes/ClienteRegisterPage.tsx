import '../../components/page-layout.css';
import './clientes.css';
import { cadastro } from '@plac/shared/contracts';
import { isValidCnpj, normalizeCnpj, onlyDigits } from '@plac/shared/domain';
import { message, MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useApiMutation, useServerFieldErrors } from '../../lib/api';
import { toast } from '../../lib/toast';
import type { AltchaCaptchaHandle } from '../../components/AltchaCaptcha';
import { EMPTY_ENDERECO, EnderecoFields, type EnderecoValues } from '../../components/EnderecoFields';
import { describedBy, Field } from '../../components/Field';
import { LABELS } from '../../lib/rotulos-cliente';
import { TIPO_CADASTRO_OPTIONS } from './model';
import { CaptchaCadastro, CnpjCadastro } from '../../components/RegistroCampos';

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
  const [form, setForm] = useState<RegisterForm>(EMPTY);
  const [recaptcha, setRecaptcha] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [cnpjInvalid, setCnpjInvalid] = useState(false);
  const [confirmTouched, setConfirmTouched] = useState(false);
  /**
   * The captcha started over (after a refused submission): its required message waits for the next
   * submission instead of appearing at once beside a widget the user has not touched yet.
   */
  const [captchaRestarted, setCaptchaRestarted] = useState(false);
  const captcha = useRef<AltchaCaptchaHandle>(null);
  const register = useApiMutation(cadastro.registerCliente);
  // A field's server messages go when the field changes.
  const server = useServerFieldErrors(register.error);
  const error = server.error;

  const missing = new Set(submitted ? missingFields(form, recaptcha) : []);
  if (captchaRestarted) missing.delete('recaptcha');
  const requiredMessage = (field: Required) => (missing.has(field) ? message('campoObrigatorio', { field: LABELS[field] }) : null);
  const emailMismatch =
    (confirmTouched || submitted) && form.confirmacao_email.trim() !== '' && !sameEmail(form.email, form.confirmacao_email);
  const invalid = (field: Required) => missing.has(field) || (error?.fieldErrors?.[field]?.length ?? 0) > 0;

  const set = <K extends keyof RegisterForm>(key: K, value: RegisterForm[K]) => {
    server.clear(key);
    setForm((f) => ({ ...f, [key]: value }));
  };

  function checkCnpj(): boolean {
    const bad = form.cnpj.trim() !== '' && !isValidCnpj(form.cnpj);
    setCnpjInvalid(bad);
    return !bad;
  }

  /** EnderecoFields' changes; their fields' server messages go too. */
  const change = (changes: Partial<EnderecoValues>) => {
    for (const key of Object.keys(changes)) server.clear(key);
    setForm((f) => ({ ...f, ...changes }));
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setCaptchaRestarted(false);
    const cnpjOk = checkCnpj();
    if (missingFields(form, recaptcha).length > 0) {
      toast.error(MESSAGES.camposObrigatorios);
      return;
    }
    if (!cnpjOk || !sameEmail(form.email, form.confirmacao_email) || !form.uf || !form.tipo_cliente || !recaptcha) return;
    const complemento = form.complemento.trim();
    try {
      await register.mutateAsync({
        body: {
          cnpj: normalizeCnpj(form.cnpj),
          razao_social: form.razao_social.trim(),
          logradouro: form.logradouro.trim(),
          numero: form.numero.trim(),
          ...(complemento ? { complemento } : {}),
          bairro: form.bairro.trim(),
          uf: form.uf,
          cidade: form.cidade.trim(),
          cep: form.cep,
          telefone: onlyDigits(form.telefone),
          nome_responsavel: form.nome_responsavel.trim(),
          email: form.email.trim(),
          confirmacao_email: form.confirmacao_email.trim(),
          tipo_cliente: form.tipo_cliente,
          recaptcha,
        },
      });
    } catch {
      // Shown already (toast, field messages). The captcha payload is spent: solve again.
      captcha.current?.reset();
      setCaptchaRestarted(true);
      return;
    }
    navigate(CADASTRO_REALIZADO_PATH, { replace: true });
  }

  return (
    <main className="public-page">
      <section className="clientes-register" aria-labelledby="cadastro-title">
        <h1 id="cadastro-title" className="app-page-title">
          Cadastro de Cliente
        </h1>
        <form className="page-panel" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Cadastro de Cliente">
          <div className="page-grid">
            <CnpjCadastro
              value={form.cnpj}
              onChange={(v) => {
                set('cnpj', v);
                if (cnpjInvalid) setCnpjInvalid(false);
              }}
              onBlur={checkCnpj}
              invalido={cnpjInvalid}
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

            <CaptchaCadastro ref={captcha} onChange={setRecaptcha} obrigatorio={requiredMessage('recaptcha')} error={error} />
          </div>

          <div className="page-actions">
            <Button type="submit" label="Cadastrar" icon="pi pi-check" loading={register.isPending} />
            <Link to="/" className="p-button p-button-secondary p-button-outlined">
              <i className="pi pi-arrow-left" aria-hidden="true" />
              &nbsp;Voltar
            </Link>
          </div>
        </form>
      </section>
    </main>
  );
}
