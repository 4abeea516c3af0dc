import { Dropdown } from 'primereact/dropdown';
import { UF_OPTIONS } from '../lib/opcoes';

interface UfDropdownProps {
  inputId: string;
  value: string | null;
  /** The UF chosen, null when cleared. */
  onChange: (uf: string | null) => void;
  invalid?: boolean;
}

/** A required choice of one of the 27 UFs ('BA - Bahia'), found by typing part of its label. */
export function UfDropdown({ inputId, value, onChange, invalid }: UfDropdownProps) {
  return (
    <Dropdown
      inputId={inputId}
      options={UF_OPTIONS}
      value={value}
      onChange={(e) => onChange((e.value as string | undefined) ?? null)}
      filter
      filterBy="label"
      placeholder="Selecione a UF"
      invalid={invalid ?? false}
      aria-required
    />
  );
}
