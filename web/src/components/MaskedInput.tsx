import { InputText, type InputTextProps } from 'primereact/inputtext';
import { useLayoutEffect, useRef, type ChangeEvent } from 'react';
import { caretAfter, significantCount } from '../lib/mask';

type MaskedInputProps = Omit<InputTextProps, 'value' | 'onChange' | 'ref'> & {
  value: string;
  /** The masked text. */
  onValueChange: (masked: string) => void;
  /** Formats whatever was typed or pasted (see mask.ts). */
  format: (text: string) => string;
};

/**
 * A text input formatted as the user types, keeping the caret after the same letter or digit. Used
 * where PrimeReact's InputMask falls short: the alphanumeric CNPJ (upper-cased as typed) and the
 * telephone of 10 or 11 digits.
 */
export function MaskedInput({ value, onValueChange, format, ...rest }: MaskedInputProps) {
  const ref = useRef<HTMLInputElement>(null);
  const caret = useRef<number | null>(null);

  useLayoutEffect(() => {
    const input = ref.current;
    if (caret.current === null || !input || document.activeElement !== input) return;
    const position = caretAfter(input.value, caret.current);
    caret.current = null;
    input.setSelectionRange(position, position);
  });

  function onChange(event: ChangeEvent<HTMLInputElement>) {
    const raw = event.target.value;
    const before = raw.slice(0, event.target.selectionStart ?? raw.length);
    caret.current = significantCount(before);
    onValueChange(format(raw));
  }

  return <InputText {...rest} ref={ref} value={value} onChange={onChange} />;
}
