import type { ApiError } from '../lib/api';
import { TextField, type TextFieldProps } from './TextField';

type AccountFieldProps = Omit<TextFieldProps, 'field' | 'error' | 'messages' | 'value' | 'onChange' | 'invalid'> & {
  /** The API's name of the field. */
  field: string;
  value: string;
  onValue: (value: string) => void;
  /** The page's own messages, by field name (the required check's, ...). */
  local: Partial<Record<string, string[]>>;
  /** The failed call, whose field messages show too; `clear`, where given, forgets a field's when it changes. */
  server: { error: ApiError | null; clear?: (field: string) => void };
};

/**
 * A text field of the account screens (login, password reset, profile): it shows the page's and the
 * server's messages for its field, and is marked invalid while it has any of them.
 */
export function AccountField({ field, value, onValue, local, server, ...input }: AccountFieldProps) {
  return (
    <TextField
      {...input}
      field={field}
      error={server.error}
      messages={local[field]}
      value={value}
      onChange={(e) => {
        server.clear?.(field);
        onValue(e.target.value);
      }}
      invalid={Boolean(local[field]) || Boolean(server.error?.fieldErrors?.[field])}
    />
  );
}

interface LoginFieldProps {
  id: string;
  value: string;
  onValue: (value: string) => void;
  local: Partial<Record<string, string[]>>;
  /** The failed login. */
  error: ApiError | null;
  autoFocus?: boolean;
}

/** The e-mail a user logs in with (the browser's 'username'), up to 100 characters. */
export function LoginEmailField({ error, ...props }: LoginFieldProps) {
  return <AccountField {...props} server={{ error }} label="E-mail" field="email" type="email" autoComplete="username" maxLength={100} />;
}

/** The password of a login ('Senha', the API's `password`, unless said), the browser's current one. */
export function LoginPasswordField({ error, label = 'Senha', field = 'password', ...props }: LoginFieldProps & { label?: string; field?: string }) {
  return <AccountField {...props} server={{ error }} label={label} field={field} type="password" autoComplete="current-password" />;
}
