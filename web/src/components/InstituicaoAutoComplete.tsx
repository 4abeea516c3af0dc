import { instituicoes, type ResponseOf } from '@plac/shared/contracts';
import { AUTOCOMPLETE_DEBOUNCE_MS, AUTOCOMPLETE_MIN_CHARS, formatCnpjBase } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { AutoComplete, type AutoCompleteCompleteEvent } from 'primereact/autocomplete';
import { useState } from 'react';
import { callApi } from '../lib/api';

/** An institution as the search offers it (the top five by name or CNPJ). */
export type InstituicaoResumo = ResponseOf<typeof instituicoes.top5Instituicoes>[number];

interface Props {
  inputId: string;
  value: InstituicaoResumo | null;
  onChange: (value: InstituicaoResumo | null) => void;
  invalid?: boolean;
  disabled?: boolean;
  placeholder?: string;
  'aria-describedby'?: string;
}

export function instituicaoLabel(i: InstituicaoResumo): string {
  return `${i.razaoSocial} - ${formatCnpjBase(i.cnpj)}`;
}

/**
 * The institution autocomplete: it searches by name or base CNPJ only
 * with more than 2 characters typed, 300 ms after the last key; with fewer it offers the top 5.
 * A failed search shows the error as a toast (the API client does).
 */
export function InstituicaoAutoComplete({ inputId, value, onChange, invalid, disabled, placeholder, ...rest }: Props) {
  const [text, setText] = useState<string | null>(null);
  const [suggestions, setSuggestions] = useState<InstituicaoResumo[]>([]);

  async function complete(event: AutoCompleteCompleteEvent) {
    const query = event.query.trim();
    try {
      const found =
        query.length >= AUTOCOMPLETE_MIN_CHARS
          ? await callApi(instituicoes.autocompleteInstituicoes, { query: { razaoSocial: query } })
          : await callApi(instituicoes.top5Instituicoes);
      setSuggestions(found);
    } catch {
      setSuggestions([]);
    }
  }

  return (
    <AutoComplete
      inputId={inputId}
      value={text ?? value ?? ''}
      suggestions={suggestions}
      completeMethod={(e) => void complete(e)}
      delay={AUTOCOMPLETE_DEBOUNCE_MS}
      field="razaoSocial"
      itemTemplate={(i: InstituicaoResumo) => instituicaoLabel(i)}
      selectedItemTemplate={(i: InstituicaoResumo) => instituicaoLabel(i)}
      dropdown
      showEmptyMessage
      emptyMessage={MESSAGES.nenhumRegistro}
      placeholder={placeholder ?? 'Nome ou CNPJ base'}
      invalid={invalid ?? false}
      disabled={disabled ?? false}
      aria-describedby={rest['aria-describedby']}
      onChange={(e) => {
        const v = e.value as InstituicaoResumo | string | null;
        if (typeof v === 'string') {
          setText(v);
          if (value) onChange(null);
        } else {
          setText(null);
          onChange(v ?? null);
        }
      }}
      onClear={() => {
        setText(null);
        onChange(null);
      }}
    />
  );
}
