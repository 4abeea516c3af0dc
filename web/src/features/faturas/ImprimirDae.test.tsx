import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderApp, signIn } from '../../test/render';
import { faturaResumo } from '../../test/faturas';

/**
 * "Imprimir DAE" in consultar-fatura (spec 2 sections 2.9 and 4): with a past default due date a dialog
 * asks for a new one (today … end of next month) and then generates; otherwise it generates at once;
 * the DAE opens in a new tab. Today is fixed at 23/11/2026 (Bahia): a May invoice's default due date,
 * 15/06/2026, has passed; an October invoice's, 15/11/2026, too; one with a DAE due 30/11/2026 has not.
 * A due date on a non-business day (Sunday 29/11/2026, Christmas) says until when it is payable.
 */

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

const DAE = {
  urlDAE: 'http://localhost/_s3/plac-documents/dae/x.pdf?X-Amz-Signature=abc',
  dtVencimento: '2026-11-30',
  numero: 7,
  valor: 123456,
  codigoBarras: '8'.repeat(44),
  linhaDigitavel: '8'.repeat(48),
  complementar: false,
};

const fatura = faturaResumo;

function stub(consumos: unknown[], dae: typeof DAE = DAE) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      sent.push({ method: init.method ?? 'GET', path: url.pathname, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined });
      if (url.pathname.endsWith('/dae')) return jsonResponse(200, dae);
      return jsonResponse(200, { items: consumos });
    }),
  );
  return sent;
}

const warnings = () => [...document.querySelectorAll('.p-toast-message-warn .p-toast-detail')].map((e) => e.textContent);
const infos = () => [...document.querySelectorAll('.p-toast-message-info .p-toast-detail')].map((e) => e.textContent);
const daeRequests = (sent: Sent[]) => sent.filter((s) => s.method === 'POST' && s.path === '/api/v1/fatura/202605-c-1/dae');

describe('Imprimir DAE', { timeout: 20_000 }, () => {
  let open: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-23T15:00:00Z'));
    open = vi.fn(() => ({ opener: window }));
    vi.stubGlobal('open', open);
    signIn(['cliente'], { clienteId: 'c-1', cnpj: '11222333000181' });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('a past default due date: the dialog asks for a new one within today … end of next month, then generates and opens the DAE', async () => {
    const sent = stub([fatura()]);
    renderApp('/app/fatura/consultarFatura');
    await userEvent.click(await screen.findByRole('button', { name: 'Imprimir DAE da fatura 05/2026 de Banco Demo S.A.' }, { timeout: 8000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Informe a nova data de vencimento do DAE' });
    expect(dialog.textContent).toContain('A data de vencimento 15/06/2026 já passou. Escolha uma data entre 23/11/2026 e 31/12/2026.');
    expect(daeRequests(sent)).toHaveLength(0);

    // Without a date: said, not sent.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Gerar DAE' }));
    await waitFor(() => expect(warnings()).toContain('O campo Data de Vencimento é obrigatório.'));
    expect(daeRequests(sent)).toHaveLength(0);

    // The picker's limits: before today disabled, today on; December the last month.
    await userEvent.click(within(dialog).getByLabelText('Data de Vencimento'));
    await waitFor(() => expect(document.querySelector('.p-datepicker-calendar')).not.toBeNull());
    const celula = (dia: string) =>
      [...document.querySelectorAll<HTMLElement>('.p-datepicker-calendar td:not(.p-datepicker-other-month) span')].find((e) => e.textContent === dia)!;
    expect(celula('22').className).toContain('p-disabled');
    expect(celula('23').className).not.toContain('p-disabled');
    const proximo = document.querySelector('.p-datepicker-next') as HTMLButtonElement;
    await userEvent.click(proximo);
    expect(celula('31').className).not.toContain('p-disabled');
    const seguinte = document.querySelector('.p-datepicker-next') as HTMLButtonElement;
    // January is past the end of next month: either the arrow is off or every day there is.
    if (!seguinte.disabled && !seguinte.classList.contains('p-disabled')) {
      await userEvent.click(seguinte);
      expect(celula('1').className).toContain('p-disabled');
      await userEvent.click(document.querySelector('.p-datepicker-prev') as HTMLButtonElement);
    }
    await userEvent.click(document.querySelector('.p-datepicker-prev') as HTMLButtonElement);
    await userEvent.click(celula('30'));

    await userEvent.click(within(dialog).getByRole('button', { name: 'Gerar DAE' }));
    await waitFor(() => expect(daeRequests(sent)).toHaveLength(1));
    expect(daeRequests(sent)[0]!.body).toEqual({ dataVencimento: '2026-11-30' });
    await waitFor(() => expect(open).toHaveBeenCalledWith(DAE.urlDAE, '_blank'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('a due date picked on a non-business day says until when it is payable without surcharge', async () => {
    const sent = stub([fatura()]);
    renderApp('/app/fatura/consultarFatura');
    await userEvent.click(await screen.findByRole('button', { name: 'Imprimir DAE da fatura 05/2026 de Banco Demo S.A.' }, { timeout: 8000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Informe a nova data de vencimento do DAE' });
    const nota = () => within(dialog).queryByRole('note');
    expect(nota()).toBeNull();
    const celula = (dia: string) =>
      [...document.querySelectorAll<HTMLElement>('.p-datepicker-calendar td:not(.p-datepicker-other-month) span')].find((e) => e.textContent === dia)!;
    // Each pick opens the picker afresh: focus leaves the field first (the picker opens on focus).
    const escolher = async (dia: string) => {
      await userEvent.click(within(dialog).getByText(/já passou/));
      await waitFor(() => expect(document.querySelector('.p-datepicker-calendar')).toBeNull());
      await userEvent.click(within(dialog).getByLabelText('Data de Vencimento'));
      await waitFor(() => expect(document.querySelector('.p-datepicker-calendar')).not.toBeNull());
      await userEvent.click(celula(dia));
      await waitFor(() => expect((within(dialog).getByLabelText('Data de Vencimento') as HTMLInputElement).value).toBe(`${dia}/11/2026`));
    };

    // Sunday 29/11/2026: payable on Monday 30/11.
    await escolher('29');
    await waitFor(() => expect(nota()?.textContent).toBe('O vencimento cai em dia não útil (domingo); o pagamento sem acréscimo pode ser feito até 30/11/2026.'));
    // Monday 30/11/2026 is a business day: no hint.
    await escolher('30');
    await waitFor(() => expect(nota()).toBeNull());
    // Saturday 28/11/2026.
    await escolher('28');
    await waitFor(() => expect(nota()?.textContent).toBe('O vencimento cai em dia não útil (sábado); o pagamento sem acréscimo pode ser feito até 30/11/2026.'));

    await userEvent.click(within(dialog).getByRole('button', { name: 'Gerar DAE' }));
    await waitFor(() => expect(daeRequests(sent)).toHaveLength(1));
    expect(daeRequests(sent)[0]!.body).toEqual({ dataVencimento: '2026-11-28' });
  });

  it('a DAE generated at once for a due date on a holiday says it after opening', async () => {
    stub([fatura({ dae: { urlDae: null, dtVencimento: '2026-12-25', valorPago: null } })], { ...DAE, dtVencimento: '2026-12-25' });
    renderApp('/app/fatura/consultarFatura');
    await userEvent.click(await screen.findByRole('button', { name: 'Imprimir DAE da fatura 05/2026 de Banco Demo S.A.' }, { timeout: 8000 }));
    await waitFor(() => expect(open).toHaveBeenCalledWith(DAE.urlDAE, '_blank'));
    await waitFor(() =>
      expect(infos()).toContain('O vencimento cai em dia não útil (feriado: Natal); o pagamento sem acréscimo pode ser feito até 28/12/2026.'),
    );
  });

  it('a due date not past (the DAE’s own): generates at once, without a date, and opens the DAE', async () => {
    const sent = stub([fatura({ dae: { urlDae: null, dtVencimento: '2026-11-30', valorPago: null } })]);
    renderApp('/app/fatura/consultarFatura');
    await userEvent.click(await screen.findByRole('button', { name: 'Imprimir DAE da fatura 05/2026 de Banco Demo S.A.' }, { timeout: 8000 }));
    await waitFor(() => expect(daeRequests(sent)).toHaveLength(1));
    expect(daeRequests(sent)[0]!.body).toEqual({});
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(open).toHaveBeenCalledWith(DAE.urlDAE, '_blank'));
  });

  it('a paid invoice has no DAE action', async () => {
    stub([fatura({ situacao: 'P' })]);
    renderApp('/app/fatura/consultarFatura');
    expect(await screen.findByRole('button', { name: 'Detalhar fatura 05/2026 de Banco Demo S.A.' }, { timeout: 8000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Imprimir DAE/ })).toBeNull();
  });

  it('a blocked pop-up is said', async () => {
    open.mockReturnValue(null);
    stub([fatura({ dae: { urlDae: null, dtVencimento: '2026-11-30', valorPago: null } })]);
    renderApp('/app/fatura/consultarFatura');
    await userEvent.click(await screen.findByRole('button', { name: 'Imprimir DAE da fatura 05/2026 de Banco Demo S.A.' }, { timeout: 8000 }));
    await waitFor(() => expect(warnings()).toContain('O navegador bloqueou a abertura do DAE. Permita pop-ups para este site e tente novamente.'));
  });
});
