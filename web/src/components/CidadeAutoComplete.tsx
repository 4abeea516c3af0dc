import { dominio } from '@plac/shared/contracts';
import { AutoComplete, type AutoCompleteCompleteEvent } from 'primereact/autocomplete';
import { useState } from 'react';
import { callApi } from '../lib/api';

/** The city search starts at 3 typed characters, debounced 800 ms. */
const CIDADE_MIN_CHARS = 3;
const CIDADE_DEBOUNCE_MS = 800;

interface CidadeAutoCompleteProps {
  inputId: string;
  uf: string | null;
  value: string;
  onChange: (cidade: string) => void;
  invalid: boolean;
  'aria-describedby': string;
  'aria-required'?: boolean;
}

/** The city of a UF, searched by name on the server (GET dominio/cidades/{uf}/{text}). */
export function CidadeAutoComplete({ inputId, uf, value, onChange, invalid, ...aria }: CidadeAutoCompleteProps) {
  const [suggestions, setSuggestions] = useState<string[]>([]);

  async function search(event: AutoCompleteCompleteEvent) {
    const text = event.query.trim();
    if (!uf || text.length < CIDADE_MIN_CHARS) {
      setSuggestions([]);
      return;
    }
    try {
      const cidades = await callApi(dominio.cidades, { params: { uf, text } });
      setSuggestions(cidades.map((c) => c.nome));
    } catch {
      // The failure is a toast already.
      setSuggestions([]);
    }
  }

  return (
    <AutoComplete
      inputId={inputId}
      value={value}
      suggestions={suggestions}
      completeMethod={(e) => void search(e)}
      onChange={(e) => onChange(typeof e.value === 'string' ? e.value : '')}
      minLength={CIDADE_MIN_CHARS}
      delay={CIDADE_DEBOUNCE_MS}
      maxLength={100}
      disabled={!uf}
      placeholder={uf ? 'Digite ao menos 3 letras' : 'Selecione a UF'}
      invalid={invalid}
      {...aria}
    />
  );
}
