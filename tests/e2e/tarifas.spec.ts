import { expect, test, type Page } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { formatMonth, monthOf, nextMonth, previousMonth } from '@plac/shared/domain';
import { pick } from './helpers';
import { signIn } from './session';

/**
 * Bands and tariffs in Chromium against the e2e twin (its demo timeline: a history version, the
 * current one and a draft on the current bands): the administrator removes the demo draft, creates a
 * draft from the current group with an added band, meets every validation of spec 3 section 5.1,
 * edits the draft's tariffs and start month (the current group's end follows), sees it under
 * Elaboração after a reload, and removes it.
 */

const ADMIN: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const M = monthOf(new Date());

const toast = (page: Page, text: string) => page.locator('.p-toast').getByText(text, { exact: true }).first();
const view = (page: Page) => page.goto('/app/detalhe/faixaCobranca');

async function removerElaboracao(page: Page, mensagem: string) {
  await page.getByRole('tab', { name: 'Elaboração' }).click();
  await page.getByRole('button', { name: 'Remover' }).click();
  await page.getByRole('button', { name: 'Sim' }).click();
  await expect(toast(page, mensagem)).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Elaboração' })).toHaveCount(0);
}

/**
 * A month in a month picker: typed as MM/YYYY (the Calendar takes a typed valid date as it is typed),
 * then its overlay closed. Not Enter: in a form, Enter may submit it before the overlay takes the key.
 */
async function mes(page: Page, inputId: string, month: string) {
  const input = page.locator(`#${inputId}`);
  await input.fill(formatMonth(month));
  await page.keyboard.press('Escape');
  await expect(input).toHaveValue(formatMonth(month));
}

const cell = (page: Page, servico: string, faixa: number) => page.getByLabel(`${servico} — Faixa ${faixa}`, { exact: true });

test('bands and tariffs: a draft created from the current group, validated, edited, kept across reloads and removed', async ({ page }) => {
  await signIn(page, ADMIN);
  await view(page);
  await expect(page.getByRole('table', { name: 'Tarifas vigentes' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Histórico' })).toBeVisible();

  // The demo draft (a new tariff on the current bands) goes first: only one draft may exist.
  if (await page.getByRole('tab', { name: 'Elaboração' }).count()) await removerElaboracao(page, 'Tarifa em elaboração removido com sucesso.');
  await expect(page.getByText(/Vigência: \d{2}\/\d{4} – sem fim/).first()).toBeVisible();

  // At least one band must remain.
  await page.getByRole('button', { name: 'Nova Faixa de Cobrança' }).click();
  await expect(page.getByRole('heading', { name: 'Nova Faixa de Cobrança e Tarifação' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Nova Faixa de Cobrança e Tarifação' });
  await expect(form.locator('#nomeGrupoFaixa')).toHaveValue('Faixas de Cobrança Vigentes');
  for (let n = 4; n > 1; n--) await form.getByRole('button', { name: `Remover Faixa ${n}` }).click();
  await form.getByRole('button', { name: 'Remover Faixa 1' }).click();
  await expect(toast(page, 'Deve existir pelo menos uma faixa de cobrança.')).toBeVisible();
  await form.getByRole('button', { name: 'Voltar' }).click();

  // A new group from a copy of the current one.
  await page.getByRole('button', { name: 'Nova Faixa de Cobrança' }).click();
  await expect(form.locator('#nomeGrupoFaixa')).toHaveValue('Faixas de Cobrança Vigentes');
  await expect(form.getByText(`termina em ${formatMonth(M)}; a nova vigência começa em ${formatMonth(nextMonth(M))}.`)).toBeVisible();
  await expect(form.locator('#nomeGrupoFaixa')).toHaveAttribute('maxlength', '100');
  await expect(form.locator('#nomeGrupoTarifa')).toHaveAttribute('maxlength', '100');
  await expect(form.locator('#assinatura')).toHaveAttribute('maxlength', '14');

  // A fifth band: its minimum is the previous maximum + 1.
  await form.getByRole('button', { name: 'Adicionar Faixa' }).click();
  const max4 = form.getByLabel('Quantidade máxima da Faixa 4');
  await max4.fill('1000000');
  await expect(form.getByRole('row', { name: /^Faixa 5 1\.000\.001/ })).toBeVisible();
  // A maximum not above its minimum: the message, and the maximum reset to minimum + 1.
  await max4.fill('400000');
  await max4.blur();
  await expect(toast(page, 'A faixa máxima deve ser maior que a faixa mínima.')).toBeVisible();
  await expect(max4).toHaveValue('500002');
  await max4.fill('2000000');
  await expect(form.getByRole('row', { name: /^Faixa 5 2\.000\.001/ })).toBeVisible();

  // Names required ('Campo obrigatório'); a promotional band must be chosen; values with 3 decimals.
  await form.locator('#nomeGrupoFaixa').fill('');
  await form.locator('#nomeGrupoTarifa').fill('');
  await cell(page, 'Envio de Fat-e', 5).fill('0,0085');
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'Dados incorretos. Por gentileza, revise os dados enviados.')).toBeVisible();
  await expect(form.getByText('Campo obrigatório', { exact: true })).toHaveCount(2);
  await form.locator('#nomeGrupoFaixa').fill('Faixas E2E');
  await form.locator('#nomeGrupoTarifa').fill('Tarifas E2E');
  await cell(page, 'Envio de Fat-e', 5).fill('0,008');
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'Dados incorretos. Por gentileza, revise os dados enviados.')).toBeVisible();
  await pick(page, 'faixaPromocional', 'Faixa 1');
  await cell(page, 'Consulta Fat-e por Chave de Acesso', 5).fill('0,07');
  await form.locator('#assinatura').fill('900,00');
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'Faixas de Cobrança e Tarifação cadastrados com êxito.')).toBeVisible();

  // The draft under Elaboração; a second one is refused.
  await expect(page).toHaveURL(/\/app\/detalhe\/faixaCobranca$/);
  await page.getByRole('tab', { name: 'Elaboração' }).click();
  const elaboracao = page.getByRole('table', { name: 'Tarifas em elaboração' });
  await expect(elaboracao.getByRole('columnheader', { name: /Faixa 5\s*2\.000\.001 -/ })).toBeVisible();
  await expect(elaboracao.getByRole('row', { name: /^Envio de Fat-e .*R\$ 0,008$/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Nova Faixa de Cobrança' })).toHaveCount(0);

  // Edit: a tariff and the start month; the current group's end follows.
  await page.getByRole('button', { name: 'Editar' }).click();
  const edit = page.getByRole('form', { name: 'Editar Faixa de Cobrança e Tarifação' });
  await expect(edit.locator('#nomeGrupoFaixa')).toHaveValue('Faixas E2E');
  await cell(page, 'Consulta Fat-e por Chave de Acesso', 5).fill('0,065');
  const inicio = nextMonth(nextMonth(nextMonth(M)));
  await mes(page, 'vigenciaInicial', inicio);
  await expect(edit.getByText(`termina em ${formatMonth(previousMonth(inicio))}; a nova vigência começa em ${formatMonth(inicio)}.`)).toBeVisible();
  await edit.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, 'Faixas de Cobrança e Tarifação atualizadas com êxito.')).toBeVisible();
  // The toast comes first; the screen reads the tariffs again, then goes back to the detail. A reload
  // before that would reload the edit form.
  await expect(page).toHaveURL(/\/app\/detalhe\/faixaCobranca$/);

  // A reload keeps everything.
  await page.reload();
  await expect(page.getByRole('table', { name: 'Tarifas vigentes' })).toBeVisible();
  await expect(page.getByText(new RegExp(`Vigência: \\d{2}/\\d{4} – ${formatMonth(previousMonth(inicio)).replace('/', '\\/')}`)).first()).toBeVisible();
  await page.getByRole('tab', { name: 'Elaboração' }).click();
  await expect(page.getByText(`Vigência: ${formatMonth(inicio)} – sem fim`).first()).toBeVisible();
  await expect(page.getByRole('table', { name: 'Tarifas em elaboração' }).getByRole('row', { name: /^Consulta Fat-e por Chave de Acesso .*R\$ 0,065$/ })).toBeVisible();
  await expect(page.getByText('Assinatura mínima: R$ 900,00')).toBeVisible();

  // Removed: the current group has no end again, after a reload too.
  await removerElaboracao(page, 'Grupo Faixa em elaboração removido com sucesso.');
  await page.reload();
  await expect(page.getByRole('table', { name: 'Tarifas vigentes' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Elaboração' })).toHaveCount(0);
  await expect(page.getByText(/Vigência: \d{2}\/\d{4} – sem fim/).first()).toBeVisible();
});
