import { InputMask, type InputMaskProps } from 'primereact/inputmask';

type UnmaskedInputProps = Omit<InputMaskProps, 'value' | 'onChange' | 'unmask' | 'autoClear'> & {
  mask: string;
  /** The value without the mask's punctuation. */
  value: string;
  /** What was typed, unmasked and passed through `normalize`. */
  onValueChange: (value: string) => void;
  /** E.g. onlyDigits for a CPF, normalizeCnpj for a CNPJ (alphanumeric, upper-cased). */
  normalize: (typed: string) => string;
};

/**
 * A masked input (CPF, base CNPJ) whose value is the unmasked text. What was typed stays when the
 * field is left half-filled (autoClear off): the form's own check says what is wrong with it instead
 * of the mask silently emptying it.
 */
export function UnmaskedInput({ value, onValueChange, normalize, ...rest }: UnmaskedInputProps) {
  return <InputMask {...rest} unmask autoClear={false} value={value} onChange={(e) => onValueChange(normalize(e.value ?? ''))} />;
}
