import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { RowActions } from './RowActions';

describe('RowActions', () => {
  it('offers the actions the row allows, named by their label or what they say more', async () => {
    const editar = vi.fn();
    render(
      <RowActions
        actions={[
          { icon: 'pi pi-pencil', label: 'Editar', ariaLabel: 'Editar Banco Alfa', onClick: editar },
          { icon: 'pi pi-lock-open', label: 'Liberar', show: false, onClick: () => undefined },
          { icon: 'pi pi-trash', label: 'Remover', severity: 'danger', onClick: () => undefined },
        ]}
      />,
    );
    expect(screen.getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual(['Editar Banco Alfa', 'Remover']);
    await userEvent.click(screen.getByRole('button', { name: 'Editar Banco Alfa' }));
    expect(editar).toHaveBeenCalledOnce();
  });
});
