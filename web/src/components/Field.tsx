import { FormField, type FormFieldProps } from './FormField';

/**
 * A field of the client screens (the client's form and registration, the trial's pages, the address
 * fields): FormField in its 'cliente' layout, the required mark outside the label.
 */
export function Field(props: Omit<FormFieldProps, 'layout' | 'group'>) {
  return <FormField {...props} layout="cliente" />;
}
