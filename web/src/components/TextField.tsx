import { InputText, type InputTextProps } from 'primereact/inputtext';
import { describedBy, FormField, type FormFieldProps } from './FormField';

export type TextFieldProps = Omit<FormFieldProps, 'children' | 'group'> &
  Omit<InputTextProps, 'id' | 'children' | 'aria-describedby' | 'aria-required'> & {
    /** Ids of other text about the input (a hint, a counter), read before its messages. */
    help?: string;
  };

/**
 * A FormField holding a text input: the input takes the field's id, is described by the field's
 * messages (after `help`) and is aria-required when the field is required. Whether it is marked
 * invalid stays the page's rule (`invalid`); every other prop goes to the input.
 */
export function TextField({ id, label, required, field, error, messages, hint, wide, layout, help, ...input }: TextFieldProps) {
  return (
    <FormField id={id} label={label} required={required} field={field} error={error} messages={messages} hint={hint} wide={wide} layout={layout}>
      <InputText {...input} id={id} {...describedBy(id, required, help)} />
    </FormField>
  );
}
