import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { diaBr, hojeMais } from './model';
import { jsonResponse, PATHS, pickOption, renderPage, signInAs, stubApi } from '../../test/consumo';
import { typeDate } from '../../test/inputs';

const LISTA = 'GET /api/v1/consumo/nao-encontradas';
const STATUS = {
  'GET /api/v1/consumo/nao-encontradas/status': jsonResponse(200, [
    { value: 'NAO_ENCONTRADA', label: 'Não encontrada' },
    { value: 'CHAVE_INVALIDA', label: 'Chave inválida' },
  ]),
};
const CHAVE = '29261111222333000181550010000000011000000017';
const ITEM = {
  id: 'n-1',
  uf: 'BA',
  data: '2026-11-20T13:05:00.000Z',
  chnfe: CHAVE,
  idModuloServico: 1,
  servico: 'Consulta Fat-e por Chave de Acesso',
  status: 'NAO_ENCONTRADA',
  statusDescricao: 'Não encontrada',
  cnpj: '11222333000181',
  razao_social: 'Banco Alfa S.A.',
};
const pagina = (items: unknown[], nextCursor?: string) => ({ items, ...(nextCursor ? { nextCursor } : {}) });

describe('consumo-erro-uf', { timeout: 20_000 }, () => {
  it('a manager has the own UF fixed and the last 30 days searched at once, 15 a page, with the spec columns', async () => {
    signInAs(['sefaz_gestor'], { uf: 'BA' });
    const api = stubApi({ ...STATUS, [LISTA]: jsonResponse(200, pagina([ITEM], 'c2')) });
    renderPage(PATHS.erroUf);
    const row = (await screen.findByText(CHAVE)).closest('tr')!;
    expect([...row.querySelectorAll('td')].map((td) => td.textContent)).toEqual([
      'BA',
      '20/11/2026 10:05',
      CHAVE,
      'Consulta Fat-e por Chave de Acesso',
      'Não encontrada',
      '11.222.333/0001-81',
      'Banco Alfa S.A.',
    ]);
    expect(Object.fromEntries(api.of('GET', '/api/v1/consumo/nao-encontradas')[0]!.query)).toEqual({
      uf: 'BA',
      dataInicio: diaBr(hojeMais(-29)),
      dataFim: diaBr(hojeMais(0)),
      perPage: '15',
    });
    expect(screen.getByLabelText('UF').closest('.p-dropdown')!.classList.contains('p-disabled')).toBe(true);
    expect(screen.getByText('Página 1')).toBeTruthy();
    // The page size shown is the real one (15 is among the options), never the empty 'Escolher'.
    expect(screen.getByLabelText('Registros por página').closest('.p-dropdown')!.querySelector('.p-dropdown-label')!.textContent).toBe('15');
    await userEvent.click(screen.getByRole('button', { name: 'Próxima' }));
    await waitFor(() => expect(api.of('GET', '/api/v1/consumo/nao-encontradas')).toHaveLength(2));
    expect(api.of('GET', '/api/v1/consumo/nao-encontradas')[1]!.query.get('cursor')).toBe('c2');
    expect(await screen.findByText('Página 2')).toBeTruthy();
  });

  it('an administrator picks the UF first (required), then searches key and status', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({ ...STATUS, [LISTA]: jsonResponse(200, pagina([])) });
    renderPage(PATHS.erroUf);
    await userEvent.click(await screen.findByRole('button', { name: 'Pesquisar' }));
    expect(await screen.findAllByText('O campo UF é obrigatório.')).toHaveLength(2);
    expect(api.of('GET', '/api/v1/consumo/nao-encontradas')).toEqual([]);

    await pickOption(screen.getByLabelText('UF'), 'PA - Pará');
    await userEvent.type(screen.getByLabelText('Chave de acesso'), '2926');
    await pickOption(screen.getByLabelText('Status'), 'Chave inválida');
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    await waitFor(() => expect(api.of('GET', '/api/v1/consumo/nao-encontradas')).toHaveLength(1));
    expect(Object.fromEntries(api.of('GET', '/api/v1/consumo/nao-encontradas')[0]!.query)).toMatchObject({ uf: 'PA', chnfe: '2926', status: 'CHAVE_INVALIDA', perPage: '15' });
    expect(await screen.findByText('Nenhum registro encontrado')).toBeTruthy();
  });

  it('refuses a start after the end and more than 90 days, in the catalogue words', async () => {
    signInAs(['sefaz_gestor'], { uf: 'BA' });
    const api = stubApi({ ...STATUS, [LISTA]: jsonResponse(200, pagina([])) });
    renderPage(PATHS.erroUf);
    await screen.findByText('Nenhum registro encontrado');
    await typeDate('Data Início', diaBr(hojeMais(-1)));
    await typeDate('Data Fim', diaBr(hojeMais(-2)));
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    expect(await screen.findByText('Data Início maior que Data Fim.')).toBeTruthy();
    await typeDate('Data Início', diaBr(hojeMais(-92)));
    await typeDate('Data Fim', diaBr(hojeMais(-1)));
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    expect(await screen.findByText('Selecione um período de, no máximo, 90 dias.')).toBeTruthy();
    expect(api.of('GET', '/api/v1/consumo/nao-encontradas')).toHaveLength(1);
  });
});
