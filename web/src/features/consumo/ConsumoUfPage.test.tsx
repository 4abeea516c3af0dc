import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, PATHS, pickOption, renderPage, SERVICOS, signInAs, stubApi } from '../../test/consumo';

const LISTA = 'GET /api/v1/consumo/ufs';
const RESPOSTA = { mes: '2026-11', itens: [{ uf: 'PA', idModuloServico: 5, servico: 'Consulta Faturamento NF-e', requisicoes: 1234 }] };

describe('consumo-uf', { timeout: 20_000 }, () => {
  it('requires the origin UF and the service, in the catalogue words, beside the fields and as toasts', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({ 'GET /api/v1/service': jsonResponse(200, SERVICOS), [LISTA]: jsonResponse(200, RESPOSTA) });
    renderPage(PATHS.uf);
    await userEvent.click(await screen.findByRole('button', { name: 'Pesquisar' }));
    expect(await screen.findAllByText('O campo UF de Origem é obrigatório.')).toHaveLength(2);
    expect(screen.getAllByText('O campo Serviço é obrigatório.')).toHaveLength(2);
    expect(document.getElementById('filtro-uf-error')?.textContent).toBe('O campo UF de Origem é obrigatório.');
    expect(api.of('GET', '/api/v1/consumo/ufs')).toEqual([]);
  });

  it('lists origin UF, service and quantity of the UF and service picked', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({ 'GET /api/v1/service': jsonResponse(200, SERVICOS), [LISTA]: jsonResponse(200, RESPOSTA) });
    renderPage(PATHS.uf);
    await pickOption(await screen.findByLabelText(/^UF de Origem/), 'PA - Pará');
    await pickOption(screen.getByLabelText(/^Serviço/), 'Consulta Faturamento NF-e');
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    const row = (await screen.findByText('Consulta Faturamento NF-e', { selector: 'td' })).closest('tr')!;
    expect([...row.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['PA', 'Consulta Faturamento NF-e', '1.234']);
    expect(Object.fromEntries(api.of('GET', '/api/v1/consumo/ufs')[0]!.query)).toEqual({ uf: 'PA', idModuloServico: '5' });
    expect(screen.getByText('Consumo do mês 11/2026')).toBeTruthy();
  });

  it('a manager has the own UF fixed and the search runs by itself, again on each service picked', async () => {
    signInAs(['sefaz_gestor'], { uf: 'BA' });
    const api = stubApi({ 'GET /api/v1/service': jsonResponse(200, SERVICOS), [LISTA]: jsonResponse(200, { mes: '2026-11', itens: [] }) });
    renderPage(PATHS.uf);
    await waitFor(() => expect(api.of('GET', '/api/v1/consumo/ufs')).toHaveLength(1));
    expect(Object.fromEntries(api.of('GET', '/api/v1/consumo/ufs')[0]!.query)).toEqual({ uf: 'BA', idModuloServico: '1' });
    const dropdown = screen.getByLabelText(/^UF de Origem/).closest('.p-dropdown')!;
    expect(dropdown.classList.contains('p-disabled')).toBe(true);
    expect(dropdown.textContent).toContain('BA - Bahia');
    await pickOption(screen.getByLabelText(/^Serviço/), 'Consulta Faturamento NF-e');
    await waitFor(() => expect(api.of('GET', '/api/v1/consumo/ufs')).toHaveLength(2));
    expect(api.of('GET', '/api/v1/consumo/ufs')[1]!.query.get('idModuloServico')).toBe('5');
  });
});
