import '../../components/page-layout.css';
import './clientes.css';
import { cadastro } from '@plac/shared/contracts';
import { isValidCnpj, MASKS, normalizeCnpj, onlyDigits } from '@plac/shared/domain';
import { message, MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputMask } from 'primereact/inputmask';
import { InputText } from 'primereact/inputtext';
import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { FieldError } from '../../components/FieldError';
import { RequiredMark } from '../../components/RequiredMark';
import { useApiMutation, useServerFieldErrors } from '../../lib/api';
import { toast } from '../../lib/toast';
import { AltchaCaptcha, type AltchaCaptchaHandle } from '../../components/AltchaCaptcha';
import { CidadeAutoComplete } from './CidadeAutoComplete';
import { describedBy, errorId, Field } from '../../components/Field';
import { maskCnpj, maskTelefone } from '../../lib/mask';
import { MaskedInput } from '../../components/MaskedInput';
import { LABELS } from '../../lib/rotulos-cliente';
import { TIPO_CADASTRO_OPTIONS, UF_OPTIONS } from './model';

/**
 * The public client registration '/cliente/new': the company's data, the e-mail
 * with its confirmation, type ESF or IMF, and the captcha. Success goes to '/cliente/cadastroRealizado'.
 */

export const CADASTRO_REALIZADO_PATH = '/cliente/cadastroRealizado';

interface RegisterForm {
  /** As typed, masked. */
  cnpj: string;
  razao_social: string;
  logradouro: string;
  numero: string;
  complemento: string;
  bairro: string;
  uf: string | null;
  cidade: string;
  /** Digits. */
  cep: string;
  /** Masked. */
  telefone: string;
  nome_responsavel: string;
  email: string;
  confirmacao_email: string;
  tipo_cliente: TipoCadastro | null;
}

/** Registration offers only ESF and IMF. */
type TipoCadastro = 'ESF' | 'IMF';

type Required = Exclude<keyof RegisterForm, 'complemento'> | 'recaptcha';

const EMPTY: RegisterForm = {
  cnpj: '',
  razao_social: '',
  logradouro: '',
  numero: '',
  complemento: '',
  bairro: '',
  uf: null,
  cidade: '',
  cep: '',
  telefone: '',
  nome_responsavel: '',
  email: '',
  confirmacao_email: '',
  tipo_cliente: null,
};

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

  function changeUf(uf: string | null) {
    server.clear('uf');
    server.clear('cidade');
    // Changing the UF clears the city.
    setForm((f) => (f.uf === uf ? f : { ...f, uf, cidade: '' }));
  }

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

  const text = (key: 'razao_social' | 'logradouro' | 'numero' | 'complemento' | 'bairro' | 'nome_responsavel', max: number) => {
    const required = key !== 'complemento';
    return (
      <Field
        id={key}
        label={LABELS[key]}
        required={required}
        error={error}
        messages={[required ? requiredMessage(key) : null]}
        wide={key === 'razao_social'}
      >
        <InputText
          id={key}
          maxLength={max}
          value={form[key]}
          onChange={(e) => set(key, e.target.value)}
          invalid={required && invalid(key)}
          {...describedBy(key, required)}
        />
      </Field>
    );
  };

  return (
    <main className="public-page">
      <section className="clientes-register" aria-labelledby="cadastro-title">
        <h1 id="cadastro-title" className="app-page-title">
          Cadastro de Cliente
        </h1>
        <form className="page-panel" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Cadastro de Cliente">
          <div className="page-grid">
            <Field
              id="cnpj"
              label={LABELS.cnpj}
              required
              error={error}
              messages={[requiredMessage('cnpj'), cnpjInvalid ? MESSAGES.cnpjInvalido : null]}
            >
              <MaskedInput
                id="cnpj"
                value={form.cnpj}
                format={maskCnpj}
                onValueChange={(v) => {
                  set('cnpj', v);
                  if (cnpjInvalid) setCnpjInvalid(false);
                }}
                onBlur={checkCnpj}
                placeholder={MASKS.cnpj.replaceAll('9', '_')}
                autoComplete="off"
                invalid={invalid('cnpj') || cnpjInvalid}
                {...describedBy('cnpj', true)}
              />
            </Field>

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

            {text('razao_social', 150)}
            {text('logradouro', 150)}
            {text('numero', 20)}
            {text('complemento', 100)}
            {text('bairro', 100)}

            <Field id="uf" label={LABELS.uf} required error={error} messages={[requiredMessage('uf')]}>
              <Dropdown
                inputId="uf"
                options={[...UF_OPTIONS]}
                value={form.uf}
                onChange={(e) => changeUf((e.value as string | undefined) ?? null)}
                filter
                filterBy="label"
                placeholder="Selecione"
                invalid={invalid('uf')}
                {...describedBy('uf', true)}
              />
            </Field>

            <Field id="cidade" label={LABELS.cidade} required error={error} messages={[requiredMessage('cidade')]}>
              <CidadeAutoComplete
                inputId="cidade"
                uf={form.uf}
                value={form.cidade}
                onChange={(v) => set('cidade', v)}
                invalid={invalid('cidade')}
                {...describedBy('cidade', true)}
              />
            </Field>

            <Field id="cep" label={LABELS.cep} required error={error} messages={[requiredMessage('cep')]}>
              <InputMask
                id="cep"
                mask={MASKS.cep}
                unmask
                autoClear={false}
                value={form.cep}
                onChange={(e) => set('cep', onlyDigits(e.value ?? ''))}
                invalid={invalid('cep')}
                {...describedBy('cep', true)}
              />
            </Field>

            <Field id="telefone" label={LABELS.telefone} required error={error} messages={[requiredMessage('telefone')]}>
              <MaskedInput
                id="telefone"
                type="tel"
                value={form.telefone}
                format={maskTelefone}
                onValueChange={(v) => set('telefone', v)}
                placeholder="(__) _____-____"
                invalid={invalid('telefone')}
                {...describedBy('telefone', true)}
              />
            </Field>

            {text('nome_responsavel', 100)}

            <Field id="email" label={LABELS.email} required error={error} messages={[requiredMessage('email')]}>
              <InputText
                id="email"
                type="email"
                maxLength={100}
                autoComplete="email"
                value={form.email}
                onChange={(e) => set('email', e.target.value)}
                invalid={invalid('email')}
                {...describedBy('email', true)}
              />
            </Field>

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

            <div className="clientes-captcha page-field-wide">
              <span className="clientes-label">
                <span id="recaptcha-label">{LABELS.recaptcha}</span>
                <RequiredMark />
              </span>
              <AltchaCaptcha ref={captcha} id="recaptcha" labelId="recaptcha-label" describedBy={errorId('recaptcha')} onChange={setRecaptcha} />
              <FieldError
                error={error}
                field="recaptcha"
                id={errorId('recaptcha')}
                messages={requiredMessage('recaptcha') ? [requiredMessage('recaptcha')!] : []}
              />
            </div>
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
