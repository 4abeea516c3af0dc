import { render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { signIn } from '../test/render';
import { setNavigator } from '../lib/navigation';
import { logout } from '../lib/session';
import { AppDialog } from './AppDialog';

function PasswordDialog() {
  const [visible, setVisible] = useState(true);
  return (
    <AppDialog header="Informe a senha" visible={visible} onHide={() => setVisible(false)}>
      <p>conteúdo do diálogo</p>
    </AppDialog>
  );
}

describe('AppDialog', () => {
  it('closes when the session ends (open dialogs close on a forced logout)', async () => {
    signIn(['cliente']);
    setNavigator(() => {});
    render(<PasswordDialog />);
    expect(await screen.findByText('conteúdo do diálogo')).toBeTruthy();
    logout('inactivity');
    await waitFor(() => expect(screen.queryByText('conteúdo do diálogo')).toBeNull());
  });
});
