import { message } from '@plac/shared/messages';
import { Dropdown } from 'primereact/dropdown';
import { UF_OPTIONS } from '../lib/opcoes';
import { FieldError } from './FieldError';
import { RequiredMark } from './RequiredMark';

/**
 * The UF field of a screen's filters ('filtro-uf'): the administrator picks any UF, searching by its
 * initials or name; a Sefaz manager sees its own UF, fixed (`fixa`), as the server holds it to it.
 * Its messages: the page's own (`erro`, e.g. the required UF) and the server's for the field `uf`.
 */
export interface UfFilterProps {
  label: string;
  /** The UF the draft holds ('' for none). */
  value: string;
  /** The manager's own UF, or null for an administrator. */
  fixa: string | null;
  onChange: (uf: string) => void;
  /** Marks the field required (the label's mark and aria-required). */
  required?: boolean;
  erro?: string | undefined;
  /** The list's failed request, whose field errors show here. */
  error: unknown;
}

export function UfFilter({ label, value, fixa, onChange, required = false, erro, error }: UfFilterProps) {
  return (
    <div className="page-field">
      <label htmlFor="filtro-uf">
        {label}
        {required && <RequiredMark />}
      </label>
      <Dropdown
        inputId="filtro-uf"
        options={UF_OPTIONS}
        value={fixa ?? value}
        onChange={(e) => onChange((e.value as string | undefined) ?? '')}
        disabled={fixa !== null}
        placeholder="Selecione"
        filter
        filterBy="label"
        emptyFilterMessage={message('nenhumRegistro')}
        invalid={Boolean(erro)}
        aria-describedby="filtro-uf-error"
        {...(required ? { 'aria-required': true } : {})}
      />
      <FieldError error={error} field="uf" id="filtro-uf-error" messages={erro ? [erro] : []} />
    </div>
  );
}
