import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CLIENTE_ESF, jsonResponse, makeAutorizacao, openDropdown, pickOption, renderPage, signInAs, stubApi } from '../../test/instituicoes';

const LIST = '/app/autorizacao-inf-cliente-list';
const FORM = '/app/autorizacao-inf-cliente-form';
const CLIENTES = 'GET /api/v1/instituicao-financeira/clientes';
const input = (label: string) => screen.getByLabelText(new RegExp(`^${label}\\s*\\*?$`)) as HTMLInputElement;

async function optionsOf(label: string) {
  return within(await openDropdown(input(label))).getAllByRole('option', { hidden: true });
}

/** PrimeReact's Calendar reads what is typed on input (userEvent's key by key is not kept in jsdom). */
function typeDate(label: string, text: string) {
  fireEvent.input(input(label), { target: { value: text } });
  fireEvent.blur(input(label));
}

const pdf = (name = 'autorizacao.pdf', content = '%PDF-1.4 conteúdo') => new File([content], name, { type: 'application/pdf' });

describe('autorizacao-inf-cliente-list', { timeout: 20_000 }, () => {
  it("the administrator must choose a client: 'É necessário selecionar um cliente PLAC'; no new-authorisation button", async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({ [CLIENTES]: jsonResponse(200, [CLIENTE_ESF]) });
    renderPage(LIST);
    await userEvent.click(await screen.findByRole('button', { name: 'Pesquisar' }));
    expect(await screen.findByText('É necessário selecionar um cliente PLAC')).toBeTruthy();
    expect(api.of('POST', '/api/v1/instituicao-financeira/autorizacoes')).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Nova Autorização' })).toBeNull();
  });

  it('a client user has its client fixed, searches its authorisations and sees the columns', async () => {
    signInAs(['cliente'], { clienteId: 'c-1' });
    const api = stubApi({
      [CLIENTES]: jsonResponse(200, [CLIENTE_ESF]),
      'POST /api/v1/instituicao-financeira/autorizacoes': jsonResponse(200, { items: [makeAutorizacao({ status: 'AUTORIZADO' })], total: 1, page: 1, size: 25 }),
    });
    renderPage(LIST);
    await waitFor(() => expect(input('Cliente').closest('.p-dropdown')!.textContent).toContain('Banco Demonstração ESF S.A.'));
    expect(input('Cliente').closest('.p-dropdown')!.className).toContain('p-disabled');
    await pickOption(input('Status'), 'Autorizado');
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    const row = (await screen.findByText('Banco Alfa S.A.')).closest('tr')!;
    expect([...row.querySelectorAll('td')].slice(0, 5).map((td) => td.textContent)).toEqual(['Banco Alfa S.A.', '33.445.566', '02/04/2026', 'Autorizado', '03/04/2026 10:00']);
    expect(api.of('POST', '/api/v1/instituicao-financeira/autorizacoes')[0]!.body).toEqual({ cnpjCliente: CLIENTE_ESF.cnpj, status: 'AUTORIZADO', page: 1, size: 25 });
    expect(screen.getByRole('button', { name: 'Nova Autorização' })).toBeTruthy();
  });

  it("refuses a start date after the end date with 'Data Início maior que Data Fim.'", async () => {
    signInAs(['cliente'], { clienteId: 'c-1' });
    const api = stubApi({ [CLIENTES]: jsonResponse(200, [CLIENTE_ESF]) });
    renderPage(LIST);
    await waitFor(() => expect(input('Cliente').closest('.p-dropdown')!.textContent).toContain('Banco Demonstração ESF S.A.'));
    typeDate('Data Início', '10/03/2026');
    typeDate('Data Fim', '05/03/2026');
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    expect(await screen.findByText('Data Início maior que Data Fim.')).toBeTruthy();
    expect(api.of('POST', '/api/v1/instituicao-financeira/autorizacoes')).toEqual([]);
  });

  it('a missing final date takes the initial date', async () => {
    signInAs(['cliente'], { clienteId: 'c-1' });
    const api = stubApi({
      [CLIENTES]: jsonResponse(200, [CLIENTE_ESF]),
      'POST /api/v1/instituicao-financeira/autorizacoes': jsonResponse(200, { items: [], total: 0, page: 1, size: 25 }),
    });
    renderPage(LIST);
    await waitFor(() => expect(input('Cliente').closest('.p-dropdown')!.textContent).toContain('Banco Demonstração ESF S.A.'));
    typeDate('Data Início', '10/03/2026');
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    await waitFor(() => expect(api.of('POST', '/api/v1/instituicao-financeira/autorizacoes')[0]?.body).toMatchObject({ dataInicial: '2026-03-10', dataFinal: '2026-03-10' }));
    expect(input('Data Fim').value).toBe('10/03/2026');
  });
});

describe('autorizacao-inf-cliente-form', { timeout: 20_000 }, () => {
  it("without a client goes back to the list with 'Sem dados do Cliente'", async () => {
    signInAs(['cliente'], { clienteId: 'c-1' });
    stubApi({ [CLIENTES]: jsonResponse(200, [CLIENTE_ESF]) });
    // In StrictMode (as the development portal runs) the effect runs twice: the toast comes once.
    const { router } = renderPage(FORM, undefined, { strict: true });
    expect(await screen.findByText('Sem dados do Cliente')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe(LIST));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.getAllByText('Sem dados do Cliente')).toHaveLength(1);
  });

  it('new: institution and file are required; only .pdf; Cadastrar posts the base64 PDF', async () => {
    signInAs(['cliente'], { clienteId: 'c-1' });
    const api = stubApi({
      'GET /api/v1/instituicao-financeira/top5': jsonResponse(200, [{ id: 'i-1', razaoSocial: 'Banco Alfa S.A.', cnpj: '33445566', uf: 'BA', situacao: 'ATIVA' }]),
      'POST /api/v1/instituicao-financeira/autorizacao': jsonResponse(201, { message: 'Autorização foi criada com sucesso!', autorizacao: makeAutorizacao() }),
      [CLIENTES]: jsonResponse(200, [CLIENTE_ESF]),
      'POST /api/v1/instituicao-financeira/autorizacoes': jsonResponse(200, { items: [], total: 0, page: 1, size: 25 }),
    });
    const { router } = renderPage(FORM, { option: 'new', cliente: CLIENTE_ESF });
    expect((await screen.findByLabelText('Cliente') as HTMLInputElement).value).toBe('Banco Demonstração ESF S.A. - 11.222.333/0001-81');

    await userEvent.click(screen.getByRole('button', { name: 'Cadastrar' }));
    expect(await screen.findByText('O campo Instituição Financeira é obrigatório.')).toBeTruthy();
    expect(screen.getByText('O campo Autorização assinada (PDF) é obrigatório.')).toBeTruthy();

    const file = screen.getByLabelText('Arquivo PDF');
    await userEvent.upload(file, new File(['texto'], 'autorizacao.docx'), { applyAccept: false });
    expect(await screen.findByText('Só são permitidos arquivos com extensão .pdf.')).toBeTruthy();
    expect(api.of('POST', '/api/v1/instituicao-financeira/autorizacao')).toEqual([]);

    await userEvent.upload(file, pdf());
    expect(await screen.findByText('autorizacao.pdf')).toBeTruthy();
    await userEvent.type(input('Instituição Financeira'), 'b');
    await userEvent.click(await screen.findByText('Banco Alfa S.A. - 33.445.566'));
    await userEvent.click(screen.getByRole('button', { name: 'Cadastrar' }));
    expect(await screen.findByText('Autorização foi criada com sucesso!')).toBeTruthy();
    const body = api.of('POST', '/api/v1/instituicao-financeira/autorizacao')[0]!.body as Record<string, string>;
    expect(body).toMatchObject({ cliente: CLIENTE_ESF.cnpj, instituicaoFinanceira: '33445566', nomeArquivo: 'autorizacao.pdf' });
    expect(new TextDecoder().decode(Uint8Array.from(atob(body.arquivo!), (c) => c.charCodeAt(0)))).toBe('%PDF-1.4 conteúdo');
    await waitFor(() => expect(router.state.location.pathname).toBe(LIST));
  });

  it('the new-institution dialog requires its fields and creates a pending institution', async () => {
    signInAs(['cliente'], { clienteId: 'c-1' });
    const api = stubApi({
      'POST /api/v1/instituicao-financeira': jsonResponse(201, { id: 'i-5', razaoSocial: 'Nova Ltda.', cnpj: '12345678', uf: 'BA', tipo: null, situacao: 'PENDENTE', regulada: false, createdAt: '2026-04-02T13:00:00.000Z', updatedAt: '2026-04-02T13:00:00.000Z', createdBy: 'x', updatedBy: 'x' }),
    });
    renderPage(FORM, { option: 'new', cliente: CLIENTE_ESF });
    await userEvent.click(await screen.findByRole('button', { name: 'Nova Instituição' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    for (const label of ['Razão Social', 'CNPJ Base', 'UF']) expect(await within(dialog).findByText(`O campo ${label} é obrigatório.`)).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText(/^Razão Social/), 'Nova Ltda.');
    await userEvent.type(within(dialog).getByLabelText(/^CNPJ Base/), '12345678');
    await pickOption(within(dialog).getByLabelText(/^UF/), 'BA - Bahia');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Instituição criada com sucesso')).toBeTruthy();
    expect(api.of('POST', '/api/v1/instituicao-financeira')[0]!.body).toEqual({ razaoSocial: 'Nova Ltda.', cnpj: '12345678', uf: 'BA' });
    await waitFor(() => expect(input('Instituição Financeira').value).toBe('Nova Ltda. - 12.345.678'));
  });

  it('edit as administrator: AUTORIZADO offers Autorizado or Desativada; a change clears the justification and requires one; back restores it', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({
      'GET /api/v1/instituicao-financeira/autorizacao': jsonResponse(200, makeAutorizacao({ status: 'AUTORIZADO', justificativa: 'Conferido.' })),
      'PUT /api/v1/instituicao-financeira/atualizacao': jsonResponse(200, { message: 'Autorização foi atualizada com sucesso', autorizacao: makeAutorizacao({ status: 'DESATIVADA' }) }),
      'POST /api/v1/instituicao-financeira/autorizacoes': jsonResponse(200, { items: [], total: 0, page: 1, size: 25 }),
      [CLIENTES]: jsonResponse(200, [CLIENTE_ESF]),
    });
    renderPage(FORM, { option: 'edit', cliente: CLIENTE_ESF, cnpjInstFinanceira: '33445566' });
    const justificativa = (await screen.findByLabelText(/^Justificativa/)) as HTMLTextAreaElement;
    expect(justificativa.value).toBe('Conferido.');
    expect(screen.queryByLabelText('Arquivo PDF')).toBeNull();
    expect(screen.getByRole('link', { name: /autorizacao\.pdf/ }).getAttribute('href')).toBe('https://documentos.example/autorizacao.pdf');

    const options = await optionsOf('Status');
    expect(options.map((o) => o.textContent)).toEqual(['Autorizado', 'Desativada']);
    await userEvent.click(options[1]!);
    await waitFor(() => expect(justificativa.value).toBe(''));
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('O campo Justificativa é obrigatório.')).toBeTruthy();
    expect(api.of('PUT', '/api/v1/instituicao-financeira/atualizacao')).toEqual([]);

    await pickOption(input('Status'), 'Autorizado');
    await waitFor(() => expect(justificativa.value).toBe('Conferido.'));
    await pickOption(input('Status'), 'Desativada');
    await userEvent.type(justificativa, 'Procuração vencida.');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Autorização foi atualizada com sucesso')).toBeTruthy();
    expect(api.of('PUT', '/api/v1/instituicao-financeira/atualizacao')[0]!.body).toEqual({
      cnpjCliente: CLIENTE_ESF.cnpj,
      cnpjInstFinanceira: '33445566',
      status: 'DESATIVADA',
      justificativa: 'Procuração vencida.',
    });
  });

  it('edit as client: status and justification read-only; no upload and no Salvar while AUTORIZADO', async () => {
    signInAs(['cliente'], { clienteId: 'c-1' });
    stubApi({ 'GET /api/v1/instituicao-financeira/autorizacao': jsonResponse(200, makeAutorizacao({ status: 'AUTORIZADO' })) });
    renderPage(FORM, { option: 'edit', cliente: CLIENTE_ESF, cnpjInstFinanceira: '33445566' });
    expect(((await screen.findByLabelText(/^Justificativa/)) as HTMLTextAreaElement).disabled).toBe(true);
    expect(input('Status').closest('.p-dropdown')!.className).toContain('p-disabled');
    expect(screen.queryByLabelText('Arquivo PDF')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Salvar' })).toBeNull();
  });

  it('edit as client of a PENDENTE item: may upload a new PDF and save', async () => {
    signInAs(['cliente'], { clienteId: 'c-1' });
    const api = stubApi({
      'GET /api/v1/instituicao-financeira/autorizacao': jsonResponse(200, makeAutorizacao()),
      'PUT /api/v1/instituicao-financeira/atualizacao': jsonResponse(200, { message: 'Autorização foi atualizada com sucesso', autorizacao: makeAutorizacao() }),
      'POST /api/v1/instituicao-financeira/autorizacoes': jsonResponse(200, { items: [], total: 0, page: 1, size: 25 }),
      [CLIENTES]: jsonResponse(200, [CLIENTE_ESF]),
    });
    renderPage(FORM, { option: 'edit', cliente: CLIENTE_ESF, cnpjInstFinanceira: '33445566' });
    await userEvent.upload(await screen.findByLabelText('Arquivo PDF'), pdf('nova.pdf'));
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Autorização foi atualizada com sucesso')).toBeTruthy();
    expect(api.of('PUT', '/api/v1/instituicao-financeira/atualizacao')[0]!.body).toMatchObject({ cnpjCliente: CLIENTE_ESF.cnpj, cnpjInstFinanceira: '33445566', nomeArquivo: 'nova.pdf' });
  });
});
