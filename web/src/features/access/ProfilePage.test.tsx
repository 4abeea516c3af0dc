import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getSession } from '../../lib/session';
import { recordToasts } from '../../test/toasts';
import { renderApp, signIn } from '../../test/render';
import { formatMegabytes, initialsOf, sniffImageType } from './avatar';
import { fieldMessage, json, loginUser, stubApi, type RecordedCall } from '../../test/access-api';

const toasts = recordToasts();

const MB = 1024 * 1024;
const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function pngFile(size: number, name = 'foto.png'): File {
  const bytes = new Uint8Array(size);
  bytes.set(PNG_HEAD);
  return new File([bytes], name, { type: 'image/png' });
}

/** The signed-in user and a profile API: GET answers `profile`, PUT answers what it was sent. */
function profileApi(profile = loginUser()) {
  signIn(profile.roles, profile, 'tok-1');
  return stubApi(({ method, url, body }: RecordedCall) => {
    if (url !== '/api/v1/profile') return undefined;
    if (method === 'GET') return json(200, profile);
    const sent = body as { name: string; email: string; image?: string | null };
    const image = sent.image === undefined ? profile.image : sent.image === null ? null : 'https://s3.local/avatar.png?sig=1';
    return json(200, { ...profile, name: sent.name, email: sent.email, image });
  });
}

async function openProfile() {
  const view = renderApp('/app/profile');
  await screen.findByLabelText('Nome', {}, { timeout: 5000 });
  return view;
}

const puts = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'PUT');

describe('profile /app/profile', () => {
  it('hides the password fields when the user may not change the password', async () => {
    profileApi(loginUser({ podeAlterarSenha: false }));
    await openProfile();
    expect((screen.getByLabelText('Nome') as HTMLInputElement).value).toBe('Ana Lima');
    expect((screen.getByLabelText('E-mail') as HTMLInputElement).value).toBe('ana@empresa.com.br');
    expect(screen.queryByLabelText('Senha')).toBeNull();
    expect(screen.queryByLabelText('Confirmação de senha')).toBeNull();
  });

  it('offers password and confirmation when allowed, and sends them', async () => {
    const calls = profileApi(loginUser({ podeAlterarSenha: true }));
    await openProfile();
    expect(screen.queryByLabelText('Senha atual')).toBeNull();
    await userEvent.type(screen.getByLabelText('Senha'), 'Nova1234');
    await userEvent.type(screen.getByLabelText('Confirmação de senha'), 'Nova1234');
    // A new password asks for the current one.
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(fieldMessage(screen.getByLabelText('Senha atual'))).toBe('Informe a senha atual para alterar o e-mail ou a senha.');
    expect(puts(calls)).toHaveLength(0);
    await userEvent.type(screen.getByLabelText('Senha atual'), 'Antiga123');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]!.body).toEqual({ name: 'Ana Lima', email: 'ana@empresa.com.br', password: 'Nova1234', password_confirmation: 'Nova1234', current_password: 'Antiga123' });
  });

  it('a new e-mail asks for the current password; the answer keeps the login e-mail and says where the link went', async () => {
    const profile = loginUser();
    signIn(profile.roles, profile, 'tok-1');
    const calls = stubApi(({ method, url, body }: RecordedCall) => {
      if (url !== '/api/v1/profile') return undefined;
      if (method === 'GET') return json(200, profile);
      return json(200, { ...profile, emailPendente: (body as { email: string }).email });
    });
    await openProfile();
    const email = screen.getByLabelText('E-mail');
    await userEvent.clear(email);
    await userEvent.type(email, 'ana.nova@empresa.com.br');
    await userEvent.type(screen.getByLabelText('Senha atual'), 'Antiga123');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]!.body).toEqual({ name: 'Ana Lima', email: 'ana.nova@empresa.com.br', current_password: 'Antiga123' });
    await waitFor(() =>
      expect(toasts.map((t) => t.detail)).toEqual([
        'Registro salvo com sucesso.',
        'Enviamos um link de confirmação para ana.nova@empresa.com.br. O e-mail de acesso muda quando o link for aberto.',
      ]),
    );
    expect((screen.getByLabelText('E-mail') as HTMLInputElement).value).toBe('ana@empresa.com.br');
    expect(await screen.findByText(/Aguardando a confirmação de ana.nova@empresa.com.br/)).toBeTruthy();
    expect(screen.queryByLabelText('Senha atual')).toBeNull();
  });

  it('refuses an avatar above 3 MB with its size in a toast, and sends no image', async () => {
    const calls = profileApi();
    await openProfile();
    await userEvent.upload(screen.getByLabelText('Arquivo da foto'), pngFile(Math.round(4.2 * MB)));
    await waitFor(() => expect(toasts.map((t) => t.detail)).toEqual(['A imagem tem 4,2 MB; o tamanho permitido é 3 MB.']));
    expect(toasts[0]!.severity).toBe('error');

    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]!.body).not.toHaveProperty('image');
  });

  it('refuses a file that is not png or jpeg by its content', async () => {
    profileApi();
    await openProfile();
    const gif = new File([new TextEncoder().encode('GIF89a....')], 'foto.png', { type: 'image/png' });
    await userEvent.upload(screen.getByLabelText('Arquivo da foto'), gif);
    await waitFor(() => expect(toasts.map((t) => t.detail)).toEqual(['Só são permitidas imagens png ou jpeg.']));
    expect(screen.queryByRole('button', { name: 'Remover foto' })).toBeNull();
  });

  it('sends a picked png as a data URL; on success says so and updates the session user', async () => {
    const calls = profileApi();
    await openProfile();
    await userEvent.upload(screen.getByLabelText('Arquivo da foto'), pngFile(1024));
    // The preview replaces the initials and the picture can be removed again.
    expect(await screen.findByRole('button', { name: 'Remover foto' })).toBeTruthy();
    const name = screen.getByLabelText('Nome');
    await userEvent.clear(name);
    await userEvent.type(name, 'Ana Lima Souza');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));

    await waitFor(() => expect(toasts.map((t) => t.detail)).toEqual(['Registro salvo com sucesso.']));
    const body = puts(calls)[0]!.body as { name: string; image: string };
    expect(body.name).toBe('Ana Lima Souza');
    expect(body.image).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(getSession()).toMatchObject({ token: 'tok-1', user: { name: 'Ana Lima Souza', image: 'https://s3.local/avatar.png?sig=1' } });
  });

  it("'Remover foto' sends null", async () => {
    const calls = profileApi(loginUser({ image: 'https://s3.local/old.png?sig=0' }));
    await openProfile();
    await userEvent.click(screen.getByRole('button', { name: 'Remover foto' }));
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]!.body).toEqual({ name: 'Ana Lima', email: 'ana@empresa.com.br', image: null });
    await waitFor(() => expect(getSession().user?.image).toBeNull());
  });

  it("shows the server's field errors beside the fields", async () => {
    signIn(['cliente'], loginUser());
    stubApi(({ method }) =>
      method === 'GET' ? json(200, loginUser()) : json(422, { errors: { email: ['Já existe um recurso com essas informações.'] } }),
    );
    await openProfile();
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(fieldMessage(screen.getByLabelText('E-mail'))).toBe('Já existe um recurso com essas informações.'));
    expect(fieldMessage(screen.getByLabelText('Nome'))).toBeNull();
  });
});

describe('profile: verification in two steps (issue 42)', () => {
  it('enrols: the current password, the QR code and its key, the first code, then the ten recovery codes once', async () => {
    const codigos = Array.from({ length: 10 }, (_, i) => `ABCD${i}-EFGH${i}`.replace(/\d/g, 'Z'));
    let ativo = false;
    signIn(['sefaz_admin'], loginUser({ tipo: 'S', roles: ['sefaz_admin'], podeAlterarSenha: true }), 'tok-1');
    const calls = stubApi(({ method, url, body }: RecordedCall) => {
      const line = `${method} ${url}`;
      if (line === 'GET /api/v1/profile') return json(200, loginUser({ tipo: 'S', roles: ['sefaz_admin'], podeAlterarSenha: true }));
      if (line === 'GET /api/v1/profile/segundo-fator') return json(200, { permitido: true, ativo, ativadoEm: ativo ? '2026-12-03T12:00:00.000Z' : null, codigosRestantes: ativo ? 10 : 0 });
      if (line === 'POST /api/v1/profile/segundo-fator') {
        if ((body as { senha: string }).senha !== 'Senha123') return json(400, { errors: { senha: ['A senha atual não confere.'] } });
        return json(200, { segredo: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/x', qrCode: 'data:image/svg+xml;base64,PHN2Zy8+' });
      }
      if (line === 'POST /api/v1/profile/segundo-fator/confirmacao') {
        ativo = true;
        return json(200, { codigosRecuperacao: codigos, message: 'Verificação em duas etapas ativada.' });
      }
      return undefined;
    });
    await openProfile();
    const secao = await screen.findByRole('region', { name: 'Verificação em duas etapas' });
    expect(within(secao).getByRole('status').textContent).toMatch(/^Desativada\./);
    await userEvent.click(within(secao).getByRole('button', { name: 'Ativar verificação em duas etapas' }));

    const dialog = await screen.findByRole('dialog', { name: 'Verificação em duas etapas' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continuar' }));
    expect(fieldMessage(within(dialog).getByLabelText('Senha atual'))).toBe('O campo Senha atual é obrigatório.');
    await userEvent.type(within(dialog).getByLabelText('Senha atual'), 'errada');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continuar' }));
    await waitFor(() => expect(fieldMessage(within(dialog).getByLabelText('Senha atual'))).toBe('A senha atual não confere.'));
    await userEvent.clear(within(dialog).getByLabelText('Senha atual'));
    await userEvent.type(within(dialog).getByLabelText('Senha atual'), 'Senha123');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continuar' }));

    const qr = await within(dialog).findByRole('img', { name: 'QR code da verificação em duas etapas' });
    expect(qr.getAttribute('src')).toBe('data:image/svg+xml;base64,PHN2Zy8+');
    expect(within(dialog).getByTestId('segundo-fator-segredo').textContent).toBe('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    await userEvent.type(within(dialog).getByLabelText('Código'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ativar' }));

    const lista = await within(dialog).findByRole('list', { name: 'Códigos de recuperação' });
    expect(within(lista).getAllByRole('listitem').map((li) => li.textContent)).toEqual(codigos);
    await waitFor(() => expect(toasts.map((t) => t.detail)).toContain('Verificação em duas etapas ativada.'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Concluir' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(within(secao).getByRole('status').textContent).toMatch(/^Ativa desde .*restantes: 10\./));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ senha: 'errada' }, { senha: 'Senha123' }, { codigo: '123456' }]);
  });

  it('is not shown to a user without a password login (an issuer)', async () => {
    signIn(['emissor'], loginUser({ roles: ['emissor'] }), 'tok-1');
    stubApi(({ method, url }: RecordedCall) => {
      if (`${method} ${url}` === 'GET /api/v1/profile') return json(200, loginUser({ roles: ['emissor'] }));
      if (`${method} ${url}` === 'GET /api/v1/profile/segundo-fator') return json(200, { permitido: false, ativo: false, ativadoEm: null, codigosRestantes: 0 });
      return undefined;
    });
    await openProfile();
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Verificação em duas etapas' })).toBeNull());
    expect(screen.queryByRole('button', { name: 'Ativar verificação em duas etapas' })).toBeNull();
  });
});

describe('avatar rules', () => {
  it('types an image by its first bytes', () => {
    expect(sniffImageType(new Uint8Array(PNG_HEAD))).toBe('image/png');
    expect(sniffImageType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImageType(new TextEncoder().encode('GIF89a'))).toBeNull();
  });

  it('writes sizes the pt-BR way, never as 3 when above the limit', () => {
    expect(formatMegabytes(Math.round(4.2 * MB))).toBe('4,2');
    expect(formatMegabytes(10 * MB)).toBe('10,0');
    expect(formatMegabytes(3 * MB + 20_000)).toBe('3,02');
  });

  it('takes the initials of the first and last names', () => {
    expect(initialsOf('Maria da Silva Souza')).toBe('MS');
    expect(initialsOf('carlos')).toBe('C');
  });
});
