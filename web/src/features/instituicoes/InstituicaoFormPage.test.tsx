import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, makeInstituicao, openDropdown, pickOption, renderPage, signInAs, stubApi } from '../../test/instituicoes';

const FORM = '/app/instituicaoFinanceira';
const input = (label: string) => screen.getByLabelText(new RegExp(`^${label}\\s*\\*?$`)) as HTMLInputElement;

/** Opens a Dropdown by its label and answers the options of its panel. */
async function optionsOf(label: string) {
  return within(await openDropdown(input(label))).getAllByRole('option', { hidden: true });
}

async function fill(cnpj: string) {
  await userEvent.type(input('Razão Social'), 'Banco Gama S.A.');
  await userEvent.type(input('CNPJ Base'), cnpj);
  await pickOption(input('UF'), 'SP - São Paulo');
  await pickOption(input('Tipo'), 'IMF');
}

describe('instituicao-financeira-form', { timeout: 20_000 }, () => {
  it("refuses an invalid base CNPJ with 'O CNPJ Base informado é inválido.' and sends nothing", async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({});
    renderPage(FORM);
    expect(await screen.findByRole('heading', { name: 'Nova Instituição Financeira' })).toBeTruthy();
    await fill('1122233');
    expect(input('CNPJ Base').value).toMatch(/^11\.222\.33/);
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('O CNPJ Base informado é inválido.')).toBeTruthy();
    expect(api.calls).toEqual([]);
    // No status field when creating.
    expect(screen.queryByLabelText(/^Status/)).toBeNull();
  });

  it('requires razaoSocial, cnpj, uf and tipo', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({});
    renderPage(FORM);
    await userEvent.click(await screen.findByRole('button', { name: 'Salvar' }));
    for (const label of ['Razão Social', 'CNPJ Base', 'UF', 'Tipo']) expect(await screen.findByText(`O campo ${label} é obrigatório.`)).toBeTruthy();
    expect(await screen.findByText('Todos os campos obrigatórios devem ser preenchidos.')).toBeTruthy();
    expect(api.calls).toEqual([]);
  });

  it('creates: posts the fields with the base CNPJ digits, then back to the list', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({ 'POST /api/v1/instituicao-financeira/admin/create': jsonResponse(201, makeInstituicao()) });
    const { router } = renderPage(FORM);
    await fill('33445566');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Regulada' }));
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Registro salvo com sucesso.')).toBeTruthy();
    expect(api.of('POST', '/api/v1/instituicao-financeira/admin/create')[0]!.body).toEqual({ razaoSocial: 'Banco Gama S.A.', cnpj: '33445566', uf: 'SP', tipo: 'IMF', regulada: true });
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/consulta/instituicaoFinanceira'));
  });

  it('edits: the cnpj is read-only, the dates are shown, and a DESATIVADA institution may only become ATIVA', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({
      'GET /api/v1/instituicao-financeira/admin/i-1': jsonResponse(200, makeInstituicao({ situacao: 'DESATIVADA' })),
      'PUT /api/v1/instituicao-financeira/admin/update': jsonResponse(200, makeInstituicao()),
    });
    renderPage(FORM, { instFin: 'i-1' });
    expect(await screen.findByRole('heading', { name: 'Editar Instituição Financeira' })).toBeTruthy();
    expect(input('CNPJ Base').disabled).toBe(true);
    expect(input('CNPJ Base').value).toBe('33.445.566');
    expect(screen.getByText('10/03/2026 10:05')).toBeTruthy();
    expect(screen.getByText('02/04/2026 17:30')).toBeTruthy();
    const options = await optionsOf('Status');
    expect(options.map((o) => o.textContent)).toEqual(['Ativa']);
    await userEvent.click(options[0]!);
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await screen.findByText('Registro salvo com sucesso.');
    expect(api.of('PUT', '/api/v1/instituicao-financeira/admin/update')[0]!.body).toEqual({ id: 'i-1', razaoSocial: 'Banco Alfa S.A.', uf: 'BA', tipo: 'ESF', regulada: true, situacao: 'ATIVA' });
  });

  it.each([
    ['ATIVA', ['Ativa', 'Desativada']],
    ['NOVO', ['Novo', 'Ativa', 'Desativada']],
    ['PENDENTE', ['Pendente', 'Ativa', 'Desativada']],
  ])('from %s offers %j', async (situacao, expected) => {
    signInAs(['sefaz_admin']);
    stubApi({ 'GET /api/v1/instituicao-financeira/admin/i-1': jsonResponse(200, makeInstituicao({ situacao })) });
    renderPage(FORM, { instFin: 'i-1' });
    await screen.findByRole('heading', { name: 'Editar Instituição Financeira' });
    const options = await optionsOf('Status');
    expect(options.map((o) => o.textContent)).toEqual(expected);
  });
});
