import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderPage, signInAs, stubApi } from '../instituicoes/testing';

const PAGE = '/app/consulta/servicos';
const SERVICOS = [
  { idModuloServico: 1, descricao: 'Consulta Fat-e por Chave de Acesso', ordem: 1, ativo: true, portal: true },
  { idModuloServico: 2, descricao: 'Consulta Fat-e por Composição de Dados', ordem: 2, ativo: true, portal: false },
  { idModuloServico: 3, descricao: 'Recebível em Avaliação', ordem: 3, ativo: false, portal: false },
];

const order = () => [...document.querySelectorAll('[data-servico]')].map((el) => Number(el.getAttribute('data-servico')));

/** The OrderList renders its items again once it has its id: query after that, not before. */
async function settled() {
  await screen.findByText('Recebível em Avaliação');
  await new Promise((resolve) => setTimeout(resolve, 100));
}

async function moveFirstDown() {
  await settled();
  await userEvent.click(screen.getByText('Consulta Fat-e por Chave de Acesso'));
  await userEvent.click(screen.getByRole('button', { name: /move down|mover para baixo|para baixo/i }));
}

describe('consulta-servicos (spec 2 section 2.15)', { timeout: 20_000 }, () => {
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
