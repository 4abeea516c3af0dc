import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { clearToasts, toast, TOAST_LIFE_MS } from '../lib/toast';
import { ToastHost } from './ToastHost';

describe('ToastHost', () => {
  it('keeps a toast for 8000 ms', async () => {
    expect(TOAST_LIFE_MS).toBe(8000);
    vi.useFakeTimers();
    render(<ToastHost />);
    act(() => toast.error('Recurso não encontrado'));
    const message = () => screen.queryByText('Recurso não encontrado')?.closest('.p-toast-message') ?? null;
    const leaving = () => message()?.classList.contains('p-toast-message-exit') ?? true;
    expect(message()).not.toBeNull();

    await act(async () => {
      await vi.advanceTimersByTimeAsync(7900);
    });
    expect(leaving()).toBe(false);

    // At 8000 ms the toast starts leaving; its leave animation ends it shortly after.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    expect(leaving()).toBe(true);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3000);
    });
    expect(message()).toBeNull();
  });

  it('shows the messages published before it mounted (while the shell chunk was loading)', () => {
    toast.warn('Você foi deslogado do sistema por inatividade. Favor entrar no sistema novamente.');
    render(<ToastHost />);
    expect(screen.getByText('Você foi deslogado do sistema por inatividade. Favor entrar no sistema novamente.')).toBeTruthy();
    expect(screen.getByText('Atenção')).toBeTruthy();
  });

  it('clearToasts removes the toasts on screen and the queued ones', async () => {
    toast.error('Fila antes do login');
    clearToasts();
    render(<ToastHost />);
    expect(screen.queryByText('Fila antes do login')).toBeNull();
    act(() => toast.error('Senha inválida'));
    expect(screen.getByText('Senha inválida')).toBeTruthy();
    act(() => clearToasts());
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 600));
    });
    expect(screen.queryByText('Senha inválida')).toBeNull();
  });
});
