import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { charts } from '../../test/fake-chart';
import { mesAtualMais, mesIso } from './model';
import { CLIENTES, jsonResponse, PATHS, pickOption, renderPage, signInAs, stubApi } from '../../test/consumo';

const SERIE = 'GET /api/v1/consumo/monitoramento';
const meses = Array.from({ length: 12 }, (_, i) => mesIso(mesAtualMais(i - 11)));
const resposta = {
  cliente: { id: 'c-1', razaoSocial: 'Banco Alfa S.A.' },
  pontos: meses,
  sucesso: meses.map((_, i) => (i === 11 ? 120 : i === 10 ? 4 : 0)),
  erro: meses.map((_, i) => (i === 11 ? 2 : 0)),
};

describe('monitoramento-consumo-cliente', { timeout: 20_000 }, () => {
  it('a monitoring user has the own client fixed and sees the last 12 months of successes and errors', async () => {
    signInAs(['cliente_monitoramento'], { clienteId: 'c-1' });
    const api = stubApi({ [SERIE]: jsonResponse(200, resposta) });
    renderPage(PATHS.monitoramento);
    const sucesso = await screen.findByRole('img', { name: /consultas com sucesso .*124 no total/ });
    expect(sucesso).toBeTruthy();
    expect(screen.getByRole('img', { name: /consultas com erro .*2 no total/ })).toBeTruthy();
    expect(Object.fromEntries(api.of('GET', '/api/v1/consumo/monitoramento')[0]!.query)).toEqual({ modo: 'mes', mesInicio: meses[0], mesFim: meses[11] });
    const dropdown = screen.getByLabelText('Cliente').closest('.p-dropdown')!;
    expect(dropdown.classList.contains('p-disabled')).toBe(true);
    await waitFor(() => expect(dropdown.textContent).toContain('Banco Alfa S.A.'));
    expect(api.of('GET', '/api/v1/cliente/get-all-cliente')).toEqual([]);
    // The numbers as a table too.
    const tabela = screen.getByRole('table', { name: 'Consultas com sucesso' });
    const ultima = [...tabela.querySelectorAll('tbody tr')].at(-1)!;
    expect([...ultima.children].map((c) => c.textContent)).toEqual([`${meses[11]!.slice(5)}/${meses[11]!.slice(0, 4)}`, '120']);
    const last = charts.at(-1)!;
    expect(last.type).toBe('line');
  });

  it('an administrator picks any client first', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({ 'GET /api/v1/cliente/get-all-cliente': jsonResponse(200, CLIENTES), [SERIE]: jsonResponse(200, resposta) });
    renderPage(PATHS.monitoramento);
    // No error on opening: only once the user consults without a client.
    await waitFor(() => expect(api.of('GET', '/api/v1/cliente/get-all-cliente')).toHaveLength(1));
    expect(screen.queryByText('É necessário selecionar um cliente PLAC')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Por dia' }));
    expect(await screen.findByText('É necessário selecionar um cliente PLAC')).toBeTruthy();
    expect(api.of('GET', '/api/v1/consumo/monitoramento')).toEqual([]);
    await pickOption(screen.getByLabelText('Cliente'), 'Banco Alfa S.A. - 11.222.333/0001-81');
    await waitFor(() => expect(api.of('GET', '/api/v1/consumo/monitoramento')).toHaveLength(1));
    expect(api.of('GET', '/api/v1/consumo/monitoramento')[0]!.query.get('idCliente')).toBe('c-1');
    expect(await screen.findByRole('img', { name: /consultas com sucesso .*124 no total/ })).toBeTruthy();
  });
});
