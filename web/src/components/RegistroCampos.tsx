import { MASKS } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { forwardRef } from 'react';
import { maskCnpj } from '../lib/mask';
import { LABELS } from '../lib/rotulos-cliente';
import { AltchaCaptcha, type AltchaCaptchaHandle } from './AltchaCaptcha';
import { describedBy, errorId, Field } from './Field';
import { FieldError } from './FieldError';
import { MaskedInput } from './MaskedInput';
import { RequiredMark } from './RequiredMark';

/**
 * The fields the two public registrations share (the client's, features/clientes/ClienteRegisterPage;
 * the trial's, features/degustacao/ClienteTestePage): the company's CNPJ, checked when the field is
 * left, and the captcha.
 */

export interface CnpjCadastroProps {
  value: string;
  onChange: (cnpj: string) => void;
  /** The check when the field is left (the page's, which its submission repeats). */
  onBlur: () => void;
  /** The last check found the CNPJ invalid: 'CNPJ inválido.' beside it. */
  invalido: boolean;
  /** 'O campo CNPJ é obrigatório.' when the submission found it empty. */
  obrigatorio: string | null;
  /** The server's refusal, for its field message. */
  error: unknown;
  /** The server or the submission marks it. */
  marcado: boolean;
}

export function CnpjCadastro({ value, onChange, onBlur, invalido, obrigatorio, error, marcado }: CnpjCadastroProps) {
  return (
    <Field id="cnpj" label={LABELS.cnpj} required error={error} messages={[obrigatorio, invalido ? MESSAGES.cnpjInvalido : null]}>
      <MaskedInput
        id="cnpj"
        value={value}
        format={maskCnpj}
        onValueChange={onChange}
        onBlur={onBlur}
        placeholder={MASKS.cnpj.replaceAll('9', '_')}
        autoComplete="off"
        invalid={marcado || invalido}
        {...describedBy('cnpj', true)}
      />
    </Field>
  );
}

export interface CaptchaCadastroProps {
  onChange: (payload: string | null) => void;
  /** 'O campo Captcha é obrigatório.' when the submission found it unsolved. */
  obrigatorio: string | null;
  error: unknown;
}

/** The captcha of a public form, with its label and its message (the field `recaptcha`, as the API names it). */
export const CaptchaCadastro = forwardRef<AltchaCaptchaHandle, CaptchaCadastroProps>(function CaptchaCadastro({ onChange, obrigatorio, error }, ref) {
  return (
    <div className="clientes-captcha page-field-wide">
      <span className="clientes-label">
        <span id="recaptcha-label">{LABELS.recaptcha}</span>
        <RequiredMark />
      </span>
      <AltchaCaptcha ref={ref} id="recaptcha" labelId="recaptcha-label" describedBy={errorId('recaptcha')} onChange={onChange} />
      <FieldError error={error} field="recaptcha" id={errorId('recaptcha')} messages={obrigatorio ? [obrigatorio] : []} />
    </div>
  );
});
