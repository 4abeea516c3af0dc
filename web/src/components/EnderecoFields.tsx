/**
 * The client's address and contact fields (Razão Social, the address, Telefone, Nome do Responsável,
 * E-mail), one Field each, placed in the grid of the form around them. Used by the Sefaz admin's client
 * form (features/clientes/ClienteFormPage), the public client registration
 * (features/clientes/ClienteRegisterPage) and the trial registration
 * (features/degustacao/ClienteTestePage, which shows only some of them).
 */
import { MASKS, onlyDigits } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { Dropdown } from 'primereact/dropdown';
import { InputMask } from 'primereact/inputmask';
import { InputText } from 'primereact/inputtext';
import { fieldErrorsOf } from '../lib/api';
import { maskTelefone } from '../lib/mask';
import { UF_OPTIONS } from '../lib/opcoes';
import { LABELS } from '../lib/rotulos-cliente';
import { CidadeAutoComplete } from './CidadeAutoComplete';
import { Field } from './Field';
import { describedBy } from './FormField';
import { MaskedInput } from './MaskedInput';

export interface EnderecoValues {
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
}

export type EnderecoField = keyof EnderecoValues;

/** Every field blank: a new registration's start. */
export const EMPTY_ENDERECO: EnderecoValues = {
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
};

/** Every field, in the order of the client's form and of its registration. */
export const ENDERECO_FIELDS: readonly EnderecoField[] = [
  'razao_social',
  'logradouro',
  'numero',
  'complemento',
  'bairro',
  'uf',
  'cidade',
  'cep',
  'telefone',
  'nome_responsavel',
  'email',
];

/** The longest text each plain text field takes. */
const MAX_LENGTH = { razao_social: 150, logradouro: 150, numero: 20, complemento: 100, bairro: 100, nome_responsavel: 100 } as const;

interface EnderecoFieldsProps {
  /** The fields shown, in this order (all of them by default). */
  fields?: readonly EnderecoField[];
  /** The form's values; only the shown fields' are read. */
  values: Partial<EnderecoValues>;
  /** The changed fields: one field, or the UF together with the city it empties. */
  onChange: (changes: Partial<EnderecoValues>) => void;
  /** The fields found empty at the last submission: each says 'O campo {field} é obrigatório.'. */
  missing: ReadonlySet<string>;
  /** The failed call whose field messages are shown beside the fields. */
  error: unknown;
  /**
   * A public registration (the client's or the trial's): the telephone shows its mask as placeholder
   * and the browser may fill the e-mail. The admin's form, which edits a client's data, does neither.
   */
  registration?: boolean;
}

/** The client's address and contact fields; see the top of the file. */
export function EnderecoFields({ fields = ENDERECO_FIELDS, values, onChange, missing, error, registration = false }: EnderecoFieldsProps) {
  // Every field is required but the complement.
  const isRequired = (field: EnderecoField) => field !== 'complemento';
  // An input is invalid when it was left empty or the server refused it.
  const invalid = (field: EnderecoField) => missing.has(field) || fieldErrorsOf(error, field).length > 0;

  function changeUf(uf: string | null) {
    // Changing the UF empties the city.
    onChange(uf === values.uf ? { uf } : { uf, cidade: '' });
  }

  function input(field: EnderecoField) {
    const aria = describedBy(field, isRequired(field));
    switch (field) {
      case 'uf':
        return (
          <Dropdown
            inputId="uf"
            options={UF_OPTIONS}
            value={values.uf ?? null}
            onChange={(e) => changeUf((e.value as string | undefined) ?? null)}
            filter
            filterBy="label"
            placeholder="Selecione"
            invalid={invalid('uf')}
            {...aria}
          />
        );
      case 'cidade':
        return (
          <CidadeAutoComplete
            inputId="cidade"
            uf={values.uf ?? null}
            value={values.cidade ?? ''}
            onChange={(cidade) => onChange({ cidade })}
            invalid={invalid('cidade')}
            {...aria}
          />
        );
      case 'cep':
        return (
          <InputMask
            id="cep"
            mask={MASKS.cep}
            unmask
            autoClear={false}
            value={values.cep ?? ''}
            onChange={(e) => onChange({ cep: onlyDigits(e.value ?? '') })}
            invalid={invalid('cep')}
            {...aria}
          />
        );
      case 'telefone':
        return (
          <MaskedInput
            id="telefone"
            type="tel"
            value={values.telefone ?? ''}
            format={maskTelefone}
            onValueChange={(telefone) => onChange({ telefone })}
            placeholder={registration ? '(__) _____-____' : undefined}
            invalid={invalid('telefone')}
            {...aria}
          />
        );
      case 'email':
        return (
          <InputText
            id="email"
            type="email"
            maxLength={100}
            autoComplete={registration ? 'email' : undefined}
            value={values.email ?? ''}
            onChange={(e) => onChange({ email: e.target.value })}
            invalid={invalid('email')}
            {...aria}
          />
        );
      default:
        return (
          <InputText
            id={field}
            maxLength={MAX_LENGTH[field]}
            value={values[field] ?? ''}
            onChange={(e) => onChange({ [field]: e.target.value })}
            invalid={invalid(field)}
            {...aria}
          />
        );
    }
  }

  return (
    <>
      {fields.map((field) => (
        <Field
          key={field}
          id={field}
          label={LABELS[field]}
          required={isRequired(field)}
          error={error}
          messages={[missing.has(field) ? message('campoObrigatorio', { field: LABELS[field] }) : null]}
          wide={field === 'razao_social'}
        >
          {input(field)}
        </Field>
      ))}
    </>
  );
}
