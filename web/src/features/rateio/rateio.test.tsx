import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@plac/shared/messages';
import { describe, expect, it } from 'vitest';
import { renderPages, signInAs } from '../../test/page-kit';
import { jsonResponse, pickOption, stubApi } from '../../test/api-stub';
import BeneficiadoRateioEditPage from './BeneficiadoRateioEditPage';
import BeneficiadoRateioFormPage from './BeneficiadoRateioFormPage';
import BeneficiadoRateioPage from './BeneficiadoRateioPage';

const audit = { createdBy: 'Ana', updatedBy: 'Ana', createdAt: '2026-01-05T12:00:00.000Z', updatedAt: '2026-01-05T12:00:00.000Z' };
const conta = { banco: '001', agencia: '3832', dvAgencia: '1', conta: '100200', dvConta: '0', contaAtiva: true, nomeBanco: 'Banco do Brasil S.A.' };
const ben = (id: string, nome: string, tipo: 'SEFAZ' | 'PARTICIPANTE' | 'RESIDUO', percentualRateio: number, extra: Record<string, unknown> = {}) => ({
  idBeneficiado: `b-${id}`,
  idParticipante: id,
  nomeParticipante: nome,
  tipo,
  tipoCodigo: { SEFAZ: 0, PARTICIPANTE: 1, RESIDUO: 2 }[tipo],
  sefaz: tipo === 'SEFAZ',
  uf: tipo === 'SEFAZ' ? id.slice(-2) : null,
  percentualRateio,
  vigenciaInicial: '2026-05-01',
  vigenciaFinal: null,
  convenioAtivo: tipo === 'SEFAZ' ? true : null,
  conta,
  ...extra,
});
const VIGENTE = {
  id: 'g-vig',
  descricao: 'Rateio Vigente',
  dtVigenciaInicial: '2026-05',
  dtVigenciaFinal: null,
  situacao: 'VIGENTE',
  percentualSefaz: 60,
  revisao: 3,
  mesAtual: '2026-11',
  beneficiados: [ben('sefaz-BA', 'SEFAZ BA', 'SEFAZ', 60), ben('fatec', 'FATEC', 'PARTICIPANTE', 30), ben('fundo', 'Fundo de Resíduo', 'RESIDUO', 10)],
  ...audit,
};
/** A Sefaz added without an agreement: its period ends the day before it starts (never in force). */
const SEM_CONVENIO = ben('sefaz-SP', 'SEFAZ SP', 'SEFAZ', 60, { vigenciaFinal: '2026-04-30', convenioAtivo: false });
const DESATIVADO = { id: 'g-old', descricao: 'Rateio Inicial', dtVigenciaInicial: '2025-11', dtVigenciaFinal: '2026-04', situacao: 'DESATIVADO' };
const ELABORACAO = { id: 'g-new', descricao: 'Rateio Futuro', dtVigenciaInicial: '2027-01', dtVigenciaFinal: null, situacao: 'ELABORACAO' };
const resumo = (g: typeof VIGENTE) => ({ id: g.id, descricao: g.descricao, dtVigenciaInicial: g.dtVigenciaInicial, dtVigenciaFinal: g.dtVigenciaFinal, situacao: g.situacao });
const PARTICIPANTES = [
  { id: 'sefaz-BA', nome: 'SEFAZ BA', sefaz: true, uf: 'BA' },
  { id: 'sefaz-PE', nome: 'SEFAZ PE', sefaz: true, uf: 'PE' },
  { id: 'fatec', nome: 'FATEC', sefaz: false, uf: null },
  { id: 'fundo', nome: 'Fundo de Resíduo', sefaz: false, uf: null },
];

const pages = { 'beneficiado-rateio': <BeneficiadoRateioPage />, 'beneficiado-rateio-form': <BeneficiadoRateioFormPage />, 'beneficiado-rateio-edit': <BeneficiadoRateioEditPage /> };

describe('beneficiado-rateio screens', { timeout: 60_000 }, () => {
  it('the view: groups dropdown, disabled validity, beneficiaries; edit hidden for a deactivated group; the draft removed after the confirmation', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({
      'GET /api/v1/grupo-rateio': jsonResponse(200, [ELABORACAO, resumo(VIGENTE), DESATIVADO]),
      'GET /api/v1/grupo-rateio/beneficiados/g-vig': jsonResponse(200, { ...VIGENTE, beneficiados: [...VIGENTE.beneficiados, SEM_CONVENIO] }),
      'GET /api/v1/grupo-rateio/beneficiados/g-old': jsonResponse(200, { ...VIGENTE, ...DESATIVADO }),
      'GET /api/v1/grupo-rateio/beneficiados/g-new': jsonResponse(200, { ...VIGENTE, ...ELABORACAO }),
      'DELETE /api/v1/grupo-rateio/elaboracao': jsonResponse(200, [true, MESSAGES.grupoRateioElaboracaoRemovido]),
      'GET /api/v1/grupo-rateio/verificar/elaboracao': jsonResponse(200, [true]),
    });
    renderPages(pages, '/app/consulta/beneficiadoRateio');
    const table = await screen.findByRole('table', { name: 'Beneficiados' });
    await within(table).findByText('FATEC');
    expect(within(table).getByText('30%')).toBeTruthy();
    // The period in order and the agreement in words; a Sefaz without agreement is never in force.
    const celulas = (nome: string) => [...within(table).getByText(nome).closest('tr')!.querySelectorAll('td')].map((td) => td.textContent);
    expect(celulas('SEFAZ BA')).toEqual(['SEFAZ BA', '01/05/2026 – sem fim', '60%', 'Ativo']);
    expect(celulas('SEFAZ SP')).toEqual(['SEFAZ SP', 'Sem vigência', '60%', 'Inativo']);
    expect(celulas('FATEC')).toEqual(['FATEC', '01/05/2026 – sem fim', '30%', 'Não se aplica']);
    expect((screen.getByLabelText('Vigência inicial') as HTMLInputElement).value).toBe('05/2026');
    expect((screen.getByLabelText('Vigência inicial') as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Editar' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remover Grupo em Elaboração' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Novo Grupo' }));
    expect(await screen.findByText(MESSAGES.grupoRateioEmElaboracao)).toBeTruthy();

    await pickOption(screen.getByLabelText('Grupo de Rateio'), 'Rateio Inicial (Desativado)');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Editar' })).toBeNull());

    await pickOption(screen.getByLabelText('Grupo de Rateio'), 'Rateio Futuro (Em elaboração)');
    await userEvent.click(await screen.findByRole('button', { name: 'Remover Grupo em Elaboração' }));
    expect(await screen.findByText(MESSAGES.confirmarExclusaoGrupoRateio)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Sim' }));
    expect(await screen.findByText(MESSAGES.grupoRateioElaboracaoRemovido)).toBeTruthy();
    expect(api.of('DELETE', '/api/v1/grupo-rateio/elaboracao')).toHaveLength(1);
  });

  it('the sharing group view: a 500 on the groups says Serviço indisponível with a retry, never an empty group (issue 28)', async () => {
    signInAs(['sefaz_admin']);
    let falhar = true;
    stubApi({
      'GET /api/v1/grupo-rateio': () => (falhar ? jsonResponse(500, { error: 'erroInterno' }) : jsonResponse(200, [resumo(VIGENTE)])),
      'GET /api/v1/grupo-rateio/beneficiados/g-vig': jsonResponse(200, VIGENTE),
    });
    renderPages(pages, '/app/consulta/beneficiadoRateio');
    const tabela = await screen.findByRole('region', { name: 'Beneficiados (rolável)' }, { timeout: 5000 });
    expect((await within(tabela).findByRole('alert')).textContent).toContain(MESSAGES.servicoIndisponivel);
    expect(within(tabela).queryByText(MESSAGES.nenhumRegistro)).toBeNull();
    falhar = false;
    fireEvent.click(within(tabela).getByRole('button', { name: 'Tentar novamente' }));
    expect(await within(tabela).findByText('FATEC')).toBeTruthy();
  });

  it('the new group: a 500 on the group in force is said with a retry, not taken for "no group in force"', async () => {
    signInAs(['sefaz_admin']);
    stubApi({
      'GET /api/v1/grupo-rateio/beneficiados/vigente': jsonResponse(503, {}),
      'GET /api/v1/participante': jsonResponse(200, PARTICIPANTES),
    });
    renderPages(pages, '/app/cadastro/beneficiadoRateio');
    expect((await screen.findByRole('alert', {}, { timeout: 5000 })).textContent).toContain(MESSAGES.servicoIndisponivel);
    expect(screen.getByRole('button', { name: 'Tentar novamente' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Novo Grupo de Rateio' })).toBeNull();
  });

  it('the new group: the mandatory end-month dialog, the checks of 5.2 with their messages, then the save', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({
      'GET /api/v1/grupo-rateio/beneficiados/vigente': jsonResponse(200, VIGENTE),
      'GET /api/v1/participante': jsonResponse(200, PARTICIPANTES),
      'POST /api/v1/grupo-rateio': jsonResponse(201, [true, MESSAGES.grupoRateioCadastrado]),
      'GET /api/v1/grupo-rateio': jsonResponse(200, [resumo(VIGENTE)]),
      'GET /api/v1/grupo-rateio/beneficiados/g-vig': jsonResponse(200, VIGENTE),
    });
    const { router } = renderPages(pages, '/app/cadastro/beneficiadoRateio');
    const dialog = await screen.findByRole('dialog', { name: 'Vigência final do grupo atual' }, { timeout: 5000 });
    const confirmar = within(dialog).getByRole('button', { name: 'Confirmar' }) as HTMLButtonElement;
    expect(confirmar.disabled).toBe(true);
    const agora = new Date();
    fireEvent.input(within(dialog).getByLabelText(/Mês final/), { target: { value: `${String(agora.getMonth() + 1).padStart(2, '0')}/${agora.getFullYear()}` } });
    await waitFor(() => expect(confirmar.disabled).toBe(false));
    await userEvent.click(confirmar);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Vigência final do grupo atual' })).toBeNull());

    const tabela = screen.getByRole('table', { name: 'Beneficiados do grupo' });
    expect(within(tabela).getByText('FATEC')).toBeTruthy();
    expect(within(tabela).getAllByText('Não se aplica')).toHaveLength(2);

    // Name required.
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect((await screen.findAllByText('O campo Nome do Grupo é obrigatório.')).length).toBeGreaterThan(0);
    await userEvent.type(screen.getByLabelText(/Nome do Grupo/), 'Rateio Novo');

    // The last SEFAZ beneficiary cannot be removed, nor its agreement deactivated.
    await userEvent.click(within(tabela).getByRole('button', { name: 'Remover SEFAZ BA' }));
    expect(await screen.findByText(MESSAGES.minimoSefaz)).toBeTruthy();
    await userEvent.click(within(tabela).getByRole('checkbox', { name: 'Convênio de SEFAZ BA' }));
    expect(await screen.findByText(MESSAGES.minimoSefazAtivo)).toBeTruthy();

    // No residue beneficiary.
    await userEvent.click(within(tabela).getByRole('button', { name: 'Remover Fundo de Resíduo' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Sim' }));
    await waitFor(() => expect(within(tabela).queryByText('Fundo de Resíduo')).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(MESSAGES.residuoObrigatorio)).toBeTruthy();

    // A new residue at 5%: the total is 95.
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar Beneficiado' }));
    const add = await screen.findByRole('dialog', { name: 'Adicionar Beneficiado' });
    await userEvent.type(within(add).getByLabelText('Nome do novo participante'), 'Novo Resíduo');
    await pickOption(within(add).getByLabelText(/Tipo/), 'Resíduo Distribuição');
    const pct = within(add).getByLabelText(/Percentual/);
    await userEvent.clear(pct);
    await userEvent.type(pct, '5');
    await userEvent.click(within(add).getByRole('button', { name: 'Confirmar' }));
    await within(tabela).findByText('Novo Resíduo');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(MESSAGES.percentualNaoTotaliza)).toBeTruthy();

    // Fix: FATEC 35%; save after the confirmation.
    await userEvent.click(within(tabela).getByRole('button', { name: 'Editar FATEC' }));
    const edit = await screen.findByRole('dialog', { name: 'Editar Beneficiado' });
    const pctFatec = within(edit).getByLabelText(/Percentual/);
    await userEvent.clear(pctFatec);
    await userEvent.type(pctFatec, '35');
    await userEvent.click(within(edit).getByRole('button', { name: 'Confirmar' }));
    await within(tabela).findByText('35%');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Sim' }));
    expect(await screen.findByText(MESSAGES.grupoRateioCadastrado)).toBeTruthy();
    const body = api.of('POST', '/api/v1/grupo-rateio')[0]!.body as { descricao: string; percentualSefaz: number; vigenciaFinalVigente: string; vigenciaInicial: string; beneficiados: { nomeParticipante: string; tipo: string; percentualRateio: number }[] };
    expect(body.descricao).toBe('Rateio Novo');
    expect(body.percentualSefaz).toBe(60);
    expect(body.beneficiados.map((b) => [b.nomeParticipante, b.tipo, b.percentualRateio])).toEqual([
      ['SEFAZ BA', 'SEFAZ', 60],
      ['FATEC', 'PARTICIPANTE', 35],
      ['Novo Resíduo', 'RESIDUO', 5],
    ]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/consulta/beneficiadoRateio'));
  });

  it('the edit of a group in force: start and SEFAZ percentage disabled, bank data checked, history tab', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({
      'GET /api/v1/grupo-rateio/beneficiados/g-vig': jsonResponse(200, VIGENTE),
      'GET /api/v1/participante': jsonResponse(200, PARTICIPANTES),
      'GET /api/v1/beneficiado/historico/g-vig': jsonResponse(200, [{ em: '2026-06-01T12:00:00.000Z', por: 'Ana', acao: 'Cadastro', detalhe: 'Grupo criado' }]),
      'PUT /api/v1/grupo-rateio': jsonResponse(200, [true, MESSAGES.grupoRateioAtualizado]),
      'GET /api/v1/grupo-rateio': jsonResponse(200, [resumo(VIGENTE)]),
    });
    renderPages(pages, '/app/edicao/beneficiadoRateio', { id: 'g-vig' });
    await screen.findByRole('table', { name: 'Beneficiados do grupo' });
    expect((screen.getByLabelText(/Percentual SEFAZ/) as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Adicionar Beneficiado' })).toBeNull();
    expect(await screen.findByRole('tab', { name: 'Histórico' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Dados bancários de FATEC' }));
    const dlg = await screen.findByRole('dialog', { name: 'Dados Bancários' });
    // A saved account shows its bank as code and name.
    expect((within(dlg).getByLabelText(/^Banco/) as HTMLInputElement).value).toBe('001 - Banco do Brasil S.A.');
    await userEvent.clear(within(dlg).getByLabelText(/DV Agência/));
    await userEvent.type(within(dlg).getByLabelText(/DV Agência/), '12');
    await userEvent.click(within(dlg).getByRole('button', { name: 'Confirmar' }));
    expect(await within(dlg).findByText(MESSAGES.digitoVerificadorInvalido)).toBeTruthy();
    await userEvent.clear(within(dlg).getByLabelText(/DV Agência/));
    await userEvent.type(within(dlg).getByLabelText(/DV Agência/), 'x');
    await userEvent.click(within(dlg).getByRole('button', { name: 'Confirmar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Dados Bancários' })).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Sim' }));
    expect(await screen.findByText(MESSAGES.grupoRateioAtualizado)).toBeTruthy();
    const body = api.of('PUT', '/api/v1/grupo-rateio')[0]!.body as { grupoRateio: { revisao: number }; beneficiados: { idParticipante: string; conta: { dvAgencia: string } }[] };
    expect(body.grupoRateio.revisao).toBe(3);
    expect(body.beneficiados.find((b) => b.idParticipante === 'fatec')!.conta.dvAgencia).toBe('X');
  });

  it('a draft’s start month changes through the ‘Alterar mês de vigência’ dialog, from next month on', async () => {
    signInAs(['sefaz_admin']);
    const RASCUNHO = { ...VIGENTE, ...ELABORACAO, revisao: 1 };
    const api = stubApi({
      'GET /api/v1/grupo-rateio/beneficiados/g-new': jsonResponse(200, RASCUNHO),
      'GET /api/v1/participante': jsonResponse(200, PARTICIPANTES),
      'GET /api/v1/beneficiado/historico/g-new': jsonResponse(200, []),
      'PUT /api/v1/grupo-rateio': jsonResponse(200, [true, MESSAGES.grupoRateioAtualizado]),
      'GET /api/v1/grupo-rateio': jsonResponse(200, [ELABORACAO]),
    });
    renderPages(pages, '/app/edicao/beneficiadoRateio', { id: 'g-new' });
    await screen.findByRole('table', { name: 'Beneficiados do grupo' });
    expect((screen.getByLabelText(/^Vigência inicial/) as HTMLInputElement).value).toBe('01/2027');
    await userEvent.click(screen.getByRole('button', { name: 'Alterar mês de vigência' }));
    const dlg = await screen.findByRole('dialog', { name: 'Alterar mês de vigência' });
    const confirmar = within(dlg).getByRole('button', { name: 'Confirmar' }) as HTMLButtonElement;
    const campo = within(dlg).getByLabelText(/^Vigência inicial/) as HTMLInputElement;
    await waitFor(() => expect(campo.value).toBe('01/2027'));
    fireEvent.input(campo, { target: { value: '03/2027' } });
    await waitFor(() => expect(confirmar.disabled).toBe(false));
    await userEvent.click(confirmar);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Alterar mês de vigência' })).toBeNull());
    expect((screen.getByLabelText(/^Vigência inicial/) as HTMLInputElement).value).toBe('03/2027');

    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Sim' }));
    expect(await screen.findByText(MESSAGES.grupoRateioAtualizado)).toBeTruthy();
    const body = api.of('PUT', '/api/v1/grupo-rateio')[0]!.body as { grupoRateio: { vigenciaInicial: string } };
    expect(body.grupoRateio.vigenciaInicial).toBe('2027-03');
  });
});
