import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@plac/shared/messages';
import { describe, expect, it } from 'vitest';
import { renderPages, signInAs } from '../../test/page-kit';
import { jsonResponse, stubApi } from '../../test/api-stub';
import BancosPage from './BancosPage';

const BANCOS = [
  { codigo: '001', nome: 'Banco do Brasil S.A.', ispb: '00000000' },
  { codigo: '003', nome: 'Banco da Amazônia S.A.', ispb: '04902979' },
  { codigo: '237', nome: 'Banco Bradesco S.A.', ispb: '60746948' },
];

const renderBancos = () => renderPages({ 'beneficiado-rateio-bancos': <BancosPage /> }, '/app/bancos/beneficiadoRateio');

describe('beneficiado-rateio-bancos', { timeout: 30_000 }, () => {
  it('lists the banks and searches by code or by name (accents ignored)', async () => {
    signInAs(['sefaz_admin']);
    stubApi({ 'GET /api/v1/beneficiado/bancos': jsonResponse(200, BANCOS) });
    renderBancos();
    const table = await screen.findByRole('table', { name: 'Bancos' });
    await within(table).findByText('Banco do Brasil S.A.');
    expect(within(table).getByText('60746948')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Código ou nome'), 'amazonia');
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    await waitFor(() => expect(within(table).queryByText('Banco do Brasil S.A.')).toBeNull());
    expect(within(table).getByText('Banco da Amazônia S.A.')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Código ou nome'));
    await userEvent.type(screen.getByLabelText('Código ou nome'), '999');
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    await within(table).findByText(MESSAGES.nenhumBancoEncontrado);
  });

  it('registers a bank, checking the 3-digit code and 8-digit ISPB first', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({
      'GET /api/v1/beneficiado/bancos': jsonResponse(200, BANCOS),
      'POST /api/v1/beneficiado/bancos': jsonResponse(201, { nome: 'Banco Novo S.A.', message: 'Banco Novo S.A. cadastrado com sucesso!' }),
    });
    renderBancos();
    await screen.findByText('Banco do Brasil S.A.');
    await userEvent.click(screen.getByRole('button', { name: 'Novo Banco' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cadastrar Banco' });
    await userEvent.type(within(dialog).getByLabelText(/Código/), '12');
    await userEvent.type(within(dialog).getByLabelText(/ISPB/), '1234');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText(MESSAGES.bancoCodigoInvalido)).toBeTruthy();
    expect(within(dialog).getByText(MESSAGES.bancoIspbInvalido)).toBeTruthy();
    expect(within(dialog).getByText('O campo Nome é obrigatório.')).toBeTruthy();
    expect(api.of('POST', '/api/v1/beneficiado/bancos')).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText(/Código/), '9');
    await userEvent.type(within(dialog).getByLabelText(/Nome/), 'Banco Novo S.A.');
    await userEvent.type(within(dialog).getByLabelText(/ISPB/), '5678');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Banco Novo S.A. cadastrado com sucesso!')).toBeTruthy();
    expect(api.of('POST', '/api/v1/beneficiado/bancos')[0]!.body).toEqual({ codigo: '129', nome: 'Banco Novo S.A.', ispb: '12345678' });
  });

  it('edits a bank: the code is fixed, the answer’s message is shown', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({
      'GET /api/v1/beneficiado/bancos': jsonResponse(200, BANCOS),
      'PUT /api/v1/beneficiado/bancos': jsonResponse(200, { nome: 'Banco Bradesco', message: 'Banco Bradesco atualizado com sucesso!' }),
    });
    renderBancos();
    await userEvent.click(await screen.findByRole('button', { name: 'Editar Banco Bradesco S.A.' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar Banco' });
    expect((within(dialog).getByLabelText(/Código/) as HTMLInputElement).disabled).toBe(true);
    const nome = within(dialog).getByLabelText(/Nome/);
    await userEvent.clear(nome);
    await userEvent.type(nome, 'Banco Bradesco');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Banco Bradesco atualizado com sucesso!')).toBeTruthy();
    expect(api.of('PUT', '/api/v1/beneficiado/bancos')[0]!.body).toEqual({ codigo: '237', nome: 'Banco Bradesco', ispb: '60746948' });
  });
});
