import { message } from '@plac/shared/messages';
import { Dropdown } from 'primereact/dropdown';

/**
 * The 'Cliente' field of a screen's filters: the administrator picks any client, searching by name or
 * CNPJ (options from lib/opcoes-clientes.ts); a client user sees its own, fixed.
 */
export interface ClienteFilterProps {
  id: string;
  options: readonly { value: string; label: string }[];
  value: string | null;
  /** The value picked (undefined: cleared). */
  onChange: (value: string | undefined) => void;
  admin: boolean;
  placeholder?: string;
}

export function ClienteFilter({ id, options, value, onChange, admin, placeholder }: ClienteFilterProps) {
  return (
    <div className="page-field">
      <label htmlFor={id}>Cliente</label>
      <Dropdown
        inputId={id}
        options={options as { value: string; label: string }[]}
        value={value}
        onChange={(e) => onChange(e.value as string | undefined)}
        disabled={!admin}
        {...(placeholder ? { placeholder } : {})}
        filter={admin}
        filterBy="label"
        emptyFilterMessage={message('nenhumRegistro')}
      />
    </div>
  );
}
