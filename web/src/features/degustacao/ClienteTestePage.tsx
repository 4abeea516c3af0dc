import { degustacao } from '@plac/shared/contracts';
import { formatCnpj, isValidCnpj, normalizeCnpj, onlyDigits } from '@plac/shared/domain';
import { message, MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { FieldError } from '../../components/FieldError';
import { RequiredMark } from '../../components/RequiredMark';
import { useApiMutation, useServerFieldErrors } from '../../lib/api';
import { toast } from '../../lib/toast';
import type { AltchaCaptchaHandle } from '../../components/AltchaCaptcha';
import { EnderecoFields, type EnderecoField, type EnderecoValues } from '../../components/EnderecoFields';
import { describedBy, errorId } from '../../components/Field';
import { LABELS } from '../../lib/rotulos-cliente';
import { CADASTRO_TESTE_PATH, termoDegustacao } from './model';
import { CaptchaCadastro, CnpjCadastro } from '../../components/RegistroCampos';

/**
 * The trial registration '/degustacao/cliente' (public, trial layout): the clients' registration
 * building blocks (CNPJ, company, responsible person, e-mail, telephone, the ALTCHA captcha) and the
 * trial consent, whose text names the company and its CNPJ as typed. Success goes to
 * '/degustacao/cadastroTeste'; the token arrives by e-mail.
 */

interface Form {
  cnpj: string;
  razao_social: string;
  nome_responsavel: string;
  email: string;
  telefone: string;
}
type Required = keyof Form | 'recaptcha' | 'aceite_termo';

const EMPTY: Form = { cnpj: '', razao_social: '', nome_responsavel: '', email: '', telefone: '' };
/** The client's fields the trial asks for, in its order. */
const FIELDS: readonly EnderecoField[] = ['razao_social', 'nome_responsavel', 'email', 'telefone'];
const TERMO_LABEL = 'Termo de uso';

export default function ClienteTestePage() {
  const navigate = useNavigate();
  const [form, setForm] = useState<Form>(EMPTY);
  const [aceite, setAceite] = useState(false);
  const [recaptcha, setRecaptcha] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [cnpjInvalid, setCnpjInvalid] = useState(false);
  const [captchaRestarted, setCaptchaRestarted] = useState(false);
  const captcha = useRef<AltchaCaptchaHandle>(null);
  const register = useApiMutation(degustacao.registerClienteTeste);
  const server = useServerFieldErrors(register.error);
  const error = server.error;

  const missingOf = (): Required[] => {
    const missing: Required[] = (Object.keys(form) as (keyof Form)[]).filter((k) => form[k].trim() === '');
    if (!aceite) missing.push('aceite_termo');
    if (!recaptcha) missing.push('recaptcha');
    return missing;
  };
  const missing = new Set(submitted ? missingOf() : []);
  if (captchaRestarted) missing.delete('recaptcha');
  const label = (field: Required) => (field === 'aceite_termo' ? TERMO_LABEL : LABELS[field]);
  const requiredMessage = (field: Required) => (missing.has(field) ? message('campoObrigatorio', { field: label(field) }) : null);
  const invalid = (field: Required) => missing.has(field) || (error?.fieldErrors?.[field]?.length ?? 0) > 0;
  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    server.clear(key);
    setForm((f) => ({ ...f, [key]: value }));
  };
  /** EnderecoFields' changes; their fields' server messages go too. */
  const change = (changes: Partial<EnderecoValues>) => {
    for (const key of Object.keys(changes)) server.clear(key);
    setForm((f) => ({ ...f, ...changes }));
  };

  function checkCnpj(): boolean {
    const bad = form.cnpj.trim() !== '' && !isValidCnpj(form.cnpj);
    setCnpjInvalid(bad);
    return !bad;
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setCaptchaRestarted(false);
    const cnpjOk = checkCnpj();
    if (missingOf().length > 0) {
      toast.error(MESSAGES.camposObrigatorios);
      return;
    }
    if (!cnpjOk || !recaptcha) return;
    try {
      await register.mutateAsync({
        body: {
          cnpj: normalizeCnpj(form.cnpj),
          razao_social: form.razao_social.trim(),
          nome_responsavel: form.nome_responsavel.trim(),
          email: form.email.trim(),
          telefone: onlyDigits(form.telefone),
          aceite_termo: true,
          recaptcha,
        },
      });
    } catch {
      // Shown already (toast, field messages). The captcha payload is spent: solve again.
      captcha.current?.reset();
      setCaptchaRestarted(true);
      return;
    }
    navigate(CADASTRO_TESTE_PATH, { replace: true });
  }

  const cnpjShown = isValidCnpj(form.cnpj) ? formatCnpj(normalizeCnpj(form.cnpj)) : '';

  return (
    <section aria-labelledby="degustacao-cadastro-title">
      <h1 id="degustacao-cadastro-title" className="app-page-title">
        Cadastro para Degustação
      </h1>
      <form className="page-panel" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Cadastro para Degustação">
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
          <EnderecoFields fields={FIELDS} values={form} onChange={change} missing={missing} error={error} registration />

          <div className="page-field page-field-wide">
            <div className="degustacao-termo">
              <Checkbox
                inputId="aceite_termo"
                checked={aceite}
                onChange={(e) => {
                  server.clear('aceite_termo');
                  setAceite(e.checked === true);
                }}
                invalid={invalid('aceite_termo')}
                // On the checkbox's input, not its wrapper: a div without a role may not carry aria-required.
                pt={{ input: describedBy('aceite_termo', true) }}
              />
              <label htmlFor="aceite_termo">{termoDegustacao(form.razao_social, cnpjShown)}</label>
              <RequiredMark />
            </div>
            <FieldError
              error={error}
              field="aceite_termo"
              id={errorId('aceite_termo')}
              messages={requiredMessage('aceite_termo') ? [requiredMessage('aceite_termo')!] : []}
            />
          </div>

          <CaptchaCadastro ref={captcha} onChange={setRecaptcha} obrigatorio={requiredMessage('recaptcha')} error={error} />
        </div>
        <div className="page-actions">
          <Button type="submit" label="Cadastrar" icon="pi pi-check" loading={register.isPending} />
          <Link to="/degustacao/autorizacao" className="p-button p-button-secondary p-button-outlined">
            <i className="pi pi-key" aria-hidden="true" />
            &nbsp;Já tenho um token
          </Link>
        </div>
      </form>
    </section>
  );
}
