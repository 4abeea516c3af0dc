import { degustacao } from '@plac/shared/contracts';
import { formatCnpj, isValidCnpj, normalizeCnpj, onlyDigits } from '@plac/shared/domain';
import { message, MESSAGES } from '@plac/shared/messages';
import { Checkbox } from 'primereact/checkbox';
import { useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { FieldError } from '../../components/FieldError';
import { RequiredMark } from '../../components/RequiredMark';
import { useApiMutation, useServerFieldErrors } from '../../lib/api';
import { toast } from '../../lib/toast';
import { EnderecoFields, type EnderecoField } from '../../components/EnderecoFields';
import { describedBy, errorId } from '../../components/FormField';
import { LABELS } from '../../lib/rotulos-cliente';
import { CADASTRO_TESTE_PATH, termoDegustacao } from './model';
import { CaptchaCadastro, CnpjCadastro, useCaptchaCadastro, type CnpjCadastroHandle } from '../../components/RegistroCampos';
import { CADASTRAR, FormActions, LinkAction } from '../../components/FormActions';
import { FormPage } from '../../components/FormPage';
import { useFormFields } from '../../lib/form-fields';

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
  const [aceite, setAceite] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const { ref: captchaRef, payload: recaptcha, onChange: setRecaptcha, ...captcha } = useCaptchaCadastro();
  const cnpj = useRef<CnpjCadastroHandle>(null);
  const register = useApiMutation(degustacao.registerClienteTeste);
  const server = useServerFieldErrors(register.error);
  const error = server.error;
  const { form, set, change } = useFormFields<Form>(EMPTY, server);

  const missingOf = (): Required[] => {
    const missing: Required[] = (Object.keys(form) as (keyof Form)[]).filter((k) => form[k].trim() === '');
    if (!aceite) missing.push('aceite_termo');
    if (!recaptcha) missing.push('recaptcha');
    return missing;
  };
  const missing = new Set(submitted ? missingOf() : []);
  if (captcha.restarted) missing.delete('recaptcha');
  const label = (field: Required) => (field === 'aceite_termo' ? TERMO_LABEL : LABELS[field]);
  const requiredMessage = (field: Required) => (missing.has(field) ? message('campoObrigatorio', { field: label(field) }) : null);
  const invalid = (field: Required) => missing.has(field) || (error?.fieldErrors?.[field]?.length ?? 0) > 0;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    captcha.submitting();
    const cnpjOk = cnpj.current?.check() !== false;
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
      // Shown already (toast, field messages).
      captcha.restart();
      return;
    }
    navigate(CADASTRO_TESTE_PATH, { replace: true });
  }

  const cnpjShown = isValidCnpj(form.cnpj) ? formatCnpj(normalizeCnpj(form.cnpj)) : '';

  return (
    <FormPage
      title="Cadastro para Degustação"
      section={{ titleId: 'degustacao-cadastro-title' }}
      onSubmit={(e) => void onSubmit(e)}
      footer={
        <FormActions submit={CADASTRAR} loading={register.isPending}>
          <LinkAction to="/degustacao/autorizacao" icon="pi pi-key" label="Já tenho um token" />
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

      <CaptchaCadastro ref={captchaRef} onChange={setRecaptcha} obrigatorio={requiredMessage('recaptcha')} error={error} />
    </FormPage>
  );
}
