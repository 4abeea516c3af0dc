import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderPage, signInAs, stubApi } from '../../test/instituicoes';

const PAGE = '/app/consulta/servicos';
const SERVICOS = [
  { idModuloServico: 1, descricao: 'Consulta Fat-e por Chave de Acesso', ordem: 1, ativo: true, portal: true },
  { idModuloServico: 2, descricao: 'Consulta Fat-e por Composição de Dados', ordem: 2, ativo: true, portal: false },
  { idModuloServico: 3, descricao: 'Recebível em Avaliação', ordem: 3, ativo: false, portal: false },
];

const order = () => [...document.querySelectorAll('[data-servico]')].map((el) => Number(el.getAttribute('data-servico')));

async function settled() {
  await screen.findByText('Recebível em Avaliação');
}

async function moveFirstDown() {
  await settled();
  await userEvent.click(screen.getByRole('button', { name: 'Mover Consulta Fat-e por Chave de Acesso para baixo' }));
}

const itemOf = (text: string) => screen.getByText(text).closest('li') as HTMLElement;

describe('consulta-servicos', { timeout: 20_000 }, () => {
  it('shows the services in order with their flags', async () => {
    signInAs(['sefaz_admin']);
    stubApi({ 'GET /api/v1/service/all': jsonResponse(200, SERVICOS) });
    renderPage(PAGE);
    await screen.findByText('Recebível em Avaliação');
    expect(order()).toEqual([1, 2, 3]);
    const item = screen.getByText('Consulta Fat-e por Composição de Dados').closest('[data-servico]') as HTMLElement;
    expect(within(item).getByText('Ativo: Sim')).toBeTruthy();
    expect(within(item).getByText('Portal: Não')).toBeTruthy();
  });

  it("after a move asks 'Você deseja salvar a nova ordem de exibição dos serviços ?'; Sim saves the list", async () => {
    signInAs(['sefaz_admin']);
    const reordered = [SERVICOS[1], SERVICOS[0], SERVICOS[2]].map((s, i) => ({ ...s!, ordem: i + 1 }));
    let saved = SERVICOS;
    const api = stubApi({
      'GET /api/v1/service/all': () => jsonResponse(200, saved),
      'POST /api/v1/service/ordem': () => {
        saved = reordered;
        return jsonResponse(200, reordered);
      },
    });
    renderPage(PAGE);
    await moveFirstDown();
    expect(await screen.findByText('Você deseja salvar a nova ordem de exibição dos serviços ?')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Sim' }));
    await waitFor(() => expect(api.of('POST', '/api/v1/service/ordem').map((c) => c.body)).toEqual([{ lista: [2, 1, 3] }]));
    await waitFor(() => expect(order()).toEqual([2, 1, 3]));
  });

  it('Não keeps the saved order and sends nothing', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({ 'GET /api/v1/service/all': jsonResponse(200, SERVICOS) });
    renderPage(PAGE);
    await moveFirstDown();
    await userEvent.click(await screen.findByRole('button', { name: 'Não' }));
    await waitFor(() => expect(order()).toEqual([1, 2, 3]));
    expect(api.of('POST', '/api/v1/service/ordem')).toEqual([]);
  });

  it('a drag that ends where it started asks nothing; a drag onto another item asks to save the new order', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({ 'GET /api/v1/service/all': jsonResponse(200, SERVICOS) });
    renderPage(PAGE);
    await settled();
    const first = itemOf('Consulta Fat-e por Chave de Acesso');
    fireEvent.dragStart(first, { dataTransfer: { setData: () => undefined, effectAllowed: 'move' } });
    fireEvent.dragOver(first, { dataTransfer: { dropEffect: 'move' } });
    fireEvent.drop(first);
    fireEvent.dragEnd(first);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Você deseja salvar a nova ordem de exibição dos serviços ?')).toBeNull();

    fireEvent.dragStart(first, { dataTransfer: { setData: () => undefined, effectAllowed: 'move' } });
    fireEvent.drop(itemOf('Recebível em Avaliação'));
    expect(await screen.findByText('Você deseja salvar a nova ordem de exibição dos serviços ?')).toBeTruthy();
    expect(order()).toEqual([2, 3, 1]);
    expect(api.of('POST', '/api/v1/service/ordem')).toEqual([]);
  });

  it('the list is a named list whose first item cannot go up nor the last down', async () => {
    signInAs(['sefaz_admin']);
    stubApi({ 'GET /api/v1/service/all': jsonResponse(200, SERVICOS) });
    renderPage(PAGE);
    await settled();
    expect(screen.getByRole('list', { name: 'Ordem de exibição dos serviços' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Mover Consulta Fat-e por Chave de Acesso para cima' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Mover Recebível em Avaliação para baixo' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("the edit dialog has Ativo and Exibir no Portal; Salvar gives 'Serviço Atualizado com Sucesso'", async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({
      'GET /api/v1/service/all': jsonResponse(200, SERVICOS),
      'PUT /api/v1/service': jsonResponse(200, { ...SERVICOS[1], portal: true }),
    });
    renderPage(PAGE);
    await settled();
    await userEvent.click(screen.getByRole('button', { name: 'Editar Consulta Fat-e por Composição de Dados' }));
    expect(((await screen.findByRole('checkbox', { name: 'Ativo' })) as HTMLInputElement).checked).toBe(true);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Exibir no Portal' }));
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Serviço Atualizado com Sucesso')).toBeTruthy();
    expect(api.of('PUT', '/api/v1/service')[0]!.body).toEqual({ idModuloServico: 2, ativo: true, portal: true });
  });
});
