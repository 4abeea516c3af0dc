import { isValidCnpj, MASKS } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { forwardRef, useImperativeHandle, useRef, useState } from 'react';
import { useValidityCheck } from '../lib/form-fields';
import { maskCnpj } from '../lib/mask';
import { LABELS } from '../lib/rotulos-cliente';
import { AltchaCaptcha, type AltchaCaptchaHandle } from './AltchaCaptcha';
import { Field } from './Field';
import { describedBy, errorId } from './FormField';
import { FieldError } from './FieldError';
import { MaskedInput } from './MaskedInput';
import { RequiredMark } from './RequiredMark';

/**
 * The fields the two public registrations share (the client's, features/clientes/ClienteRegisterPage;
 * the trial's, features/degustacao/ClienteTestePage): the company's CNPJ, checked when the field is
 * left and again by the submission, and the captcha, started over when a submission is refused.
 */

export interface CnpjCadastroProps {
  value: string;
  onChange: (cnpj: string) => void;
  /** 'O campo CNPJ é obrigatório.' when the submission found it empty. */
  obrigatorio: string | null;
  /** The server's refusal, for its field message. */
  error: unknown;
  /** The server or the submission marks it. */
  marcado: boolean;
}

/** What the page's submission asks of the CNPJ field. */
export interface CnpjCadastroHandle {
  /** Checks the CNPJ typed (an empty one is the required check's), shows MESSAGES.cnpjInvalido if it is not valid, and answers whether it is. */
  check: () => boolean;
}

/**
 * The CNPJ of a registration. It is checked when the field is left and again by the submission (the
 * handle's `check`); MESSAGES.cnpjInvalido stays beside it until the CNPJ changes.
 */
export const CnpjCadastro = forwardRef<CnpjCadastroHandle, CnpjCadastroProps>(function CnpjCadastro({ value, onChange, obrigatorio, error, marcado }, ref) {
  const validity = useValidityCheck(value, isValidCnpj);
  useImperativeHandle(ref, () => ({ check: validity.check }));
  return (
    <Field id="cnpj" label={LABELS.cnpj} required error={error} messages={[obrigatorio, validity.invalid ? MESSAGES.cnpjInvalido : null]}>
      <MaskedInput
        id="cnpj"
        value={value}
        format={maskCnpj}
        onValueChange={(cnpj) => {
          onChange(cnpj);
          validity.changed();
        }}
        onBlur={validity.check}
        placeholder={MASKS.cnpj.replaceAll('9', '_')}
        autoComplete="off"
        invalid={marcado || validity.invalid}
        {...describedBy('cnpj', true)}
      />
    </Field>
  );
});

/**
 * The captcha's state in a registration page: its payload, and its start over after a refused
 * submission (the payload is spent: solve again). After a restart the required message waits for
 * the next submission instead of appearing at once beside a widget the user has not touched yet.
 */
export function useCaptchaCadastro() {
  const ref = useRef<AltchaCaptchaHandle>(null);
  const [payload, setPayload] = useState<string | null>(null);
  const [restarted, setRestarted] = useState(false);
  return {
    ref,
    payload,
    onChange: setPayload,
    /** Started over since the last submission: not 'obrigatório' yet. */
    restarted,
    /** A submission begins: an unsolved captcha is 'obrigatório' again. */
    submitting: () => setRestarted(false),
    /** The submission was refused. */
    restart: () => {
      ref.current?.reset();
      setRestarted(true);
    },
  };
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
