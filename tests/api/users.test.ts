import { randomInt } from 'node:crypto';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureIssuer } from '../../functions/users/service';
import { call } from './http';
import { todasAsPaginas } from './paginas';
import { waitForMail } from './mail';
import { randomCpf, sefazToken } from './people';
import { bearer } from './session';

/** User administration by the Sefaz administrator: list, form, roles by user type, removal. */

let admin: string;

beforeAll(async () => {
  admin = await sefazToken();
});

const send = (method: string, path: string, body?: unknown, token = admin) =>
  call(path, { method, headers: { 'content-type': 'application/json', ...bearer(token) }, ...(body ? { body: JSON.stringify(body) } : {}) });

type Linha = { id: string; email: string; cpf: string; name: string };

/** Every page of a user-list query, following nextCursor (a filtered page may be answered short). */
async function todas(query: string, token = admin): Promise<Linha[]> {
  return (await todasAsPaginas<Linha>((cursor) => send('GET', `/api/v1/users?${query}${cursor ? `&cursor=${cursor}` : ''}`, undefined, token))).flat();
}

const sefazUser = (n: string) => ({
  name: `Gestora ${n}`,
  email: `gestora.${n}@sefaz.ba.gov.br`,
  cpf: randomCpf(),
  tipo_usuario: 'S',
  roles: ['sefaz_gestor'],
  uf: 'BA',
});

describe('users administration', () => {
  it('creates a Sefaz manager, e-mails the link to set a password, and finds it by the filters', async () => {
    const n = String(randomInt(1e6));
    const input = sefazUser(n);
    const created = await send('POST', '/api/v1/users', input);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: input.name, email: input.email, cpf: input.cpf, situacao: 'A', tipo_usuario: 'S', uf: 'BA', roles: [{ slug: 'sefaz_gestor', label: 'Gestor' }], updated_by: 'Administradora Demo' });
    const mail = await waitForMail(input.email, 'defina sua senha');
    expect(mail.text).toMatch(/\/password\/reset\/[\w-]{20,}/);

    const byName = await todas(`name=${encodeURIComponent(`gestora ${n}`)}&tipo=S&situacao=A`);
    expect(byName.map((u) => u.email)).toEqual([input.email]);
    const byCpf = await todas(`cpf=${input.cpf.slice(0, 3)}.${input.cpf.slice(3, 6)}`);
    expect(byCpf.map((u) => u.cpf)).toContain(input.cpf);
  });

  it('creates a client user and forces the avaliacao role for a client under evaluation', async () => {
    const n = String(randomInt(1e6));
    const { status, body } = await send('POST', '/api/v1/users', {
      name: `Analista ${n}`,
      email: `analista.${n}@credito.demo`,
      cpf: randomCpf(),
      tipo_usuario: 'C',
      roles: ['cliente', 'cliente_web'],
      cliente_id: 'demo-avaliacao',
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({ roles: [{ slug: 'avaliacao' }], cliente: { id: 'demo-avaliacao', razao_social: 'Crédito em Avaliação S.A.' } });
  });

  it('refuses the same e-mail twice, also when two creations race, and writes only one', async () => {
    const n = String(randomInt(1e6));
    const a = { ...sefazUser(n) };
    const b = { ...sefazUser(n), cpf: randomCpf() };
    const results = await Promise.all([send('POST', '/api/v1/users', a), send('POST', '/api/v1/users', b)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    // The toast's text and the field to mark, in one answer.
    const dup = 'Já existe um recurso com essas informações.';
    expect(results.find((r) => r.status === 409)!.body).toEqual({ error: 'recursoDuplicado', message: dup, errors: { email: [dup] } });
    expect(await todas(`email=${encodeURIComponent(a.email)}`)).toHaveLength(1);
    // The CPF of whichever creation won the race is taken.
    const winner = results[0]!.status === 201 ? a : b;
    const sameCpf = await send('POST', '/api/v1/users', { ...sefazUser(`${n}b`), cpf: winner.cpf });
    expect(sameCpf.status).toBe(409);
    expect(sameCpf.body).toEqual({ error: 'recursoDuplicado', message: dup, errors: { cpf: [dup] } });

    // Changing a user to another user's e-mail marks the e-mail too.
    const other = await send('POST', '/api/v1/users', { ...sefazUser(`${n}c`) });
    const taken = await send('PUT', `/api/v1/users/${(other.body as { id: string }).id}`, { ...sefazUser(`${n}c`), email: a.email, situacao: 'A' });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ error: 'recursoDuplicado', message: dup, errors: { email: [dup] } });
  });

  it.each([
    [{ cpf: '111.111.111-11' }, 'cpf', 'O campo CPF é inválido.'],
    [{ tipo_usuario: 'C', roles: ['cliente'], uf: undefined }, 'cliente_id', 'O campo cliente é obrigatório para usuários do tipo Cliente.'],
    [{ roles: ['cliente'] }, 'roles', 'A permissão Cliente não é permitida para este tipo de usuário.'],
    [{ roles: [] }, 'roles', 'Selecione ao menos uma permissão.'],
    [{ uf: undefined }, 'uf', 'O campo UF é obrigatório.'],
    [{ email: 'sem-arroba' }, 'email', 'Informe um e-mail válido.'],
  ])('refuses %j with a message beside %s and writes nothing', async (change, field, text) => {
    const n = String(randomInt(1e6));
    const input = { ...sefazUser(n), ...change };
    const { status, body } = await send('POST', '/api/v1/users', input);
    expect(status).toBe(400);
    expect((body as { errors: Record<string, string[]> }).errors[field]).toEqual([text]);
    if (typeof input.email === 'string' && input.email.includes('@')) {
      expect(await todas(`email=${encodeURIComponent(input.email)}`)).toEqual([]);
    }
  });

  it('edits a user, keeps its CPF, and ends its sessions when it is deactivated', async () => {
    const n = String(randomInt(1e6));
    const created = (await send('POST', '/api/v1/users', sefazUser(n))).body as { id: string; cpf: string };
    const update = { name: `Gestora Editada ${n}`, email: `editada.${n}@sefaz.ba.gov.br`, tipo_usuario: 'S', roles: ['sefaz_admin'], uf: 'SE', situacao: 'I' };
    const { status, body } = await send('PUT', `/api/v1/users/${created.id}`, { ...update, cpf: '00000000000' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ name: update.name, email: update.email, cpf: created.cpf, situacao: 'I', uf: 'SE' });
    const oldEmailFree = await send('POST', '/api/v1/users', { ...sefazUser(n) });
    expect(oldEmailFree.status).toBe(201);
  });

  it('lists the roles with their labels', async () => {
    const { body } = await send('GET', '/api/v1/roles');
    expect(body).toContainEqual({ slug: 'sefaz_admin', label: 'Administrador Plac', tipo_usuario: 'S' });
    expect(body).toContainEqual({ slug: 'avaliacao', label: 'Em Avaliação', tipo_usuario: 'C' });
    expect((body as { slug: string }[]).map((r) => r.slug)).not.toContain('emissor');
  });

  it('does not let the administrator remove itself, and removes another user', async () => {
    const self = await send('DELETE', '/api/v1/users/demo-admin');
    expect(self.status).toBe(403);
    expect(self.body).toMatchObject({ message: 'Você não pode remover seu próprio usuário' });
    const n = String(randomInt(1e6));
    const created = (await send('POST', '/api/v1/users', sefazUser(n))).body as { id: string };
    expect((await send('DELETE', `/api/v1/users/${created.id}`)).status).toBe(200);
    expect((await send('GET', `/api/v1/users/${created.id}`)).status).toBe(404);
  });

  it('excludes the users of notUsers and pages the result', async () => {
    const page = await send('GET', '/api/v1/users?perPage=10&notUsers=demo-admin,demo-gestor');
    const items = (page.body as { items: { id: string }[] }).items;
    expect(items.length).toBeLessThanOrEqual(10);
    expect(items.map((u) => u.id)).not.toContain('demo-admin');
    expect(items.map((u) => u.id)).not.toContain('demo-gestor');
  });

  it('pages past one page by cursor, in name order, each user once; never lists an issuer', async () => {
    const n = String(randomInt(1e6)).padStart(6, '0');
    const criados: string[] = [];
    for (let i = 0; i < 12; i++) {
      const { status, body } = await send('POST', '/api/v1/users', { ...sefazUser(`${n}`), name: `Paginada ${n} ${String(i).padStart(2, '0')}`, email: `paginada.${n}.${i}@sefaz.ba.gov.br` });
      expect(status).toBe(201);
      criados.push((body as { id: string }).id);
    }
    // Page by page (a filtered page may be answered short when the filter skips many users: it still
    // holds at most 10, and the next one goes on from where it stopped).
    const paginas = await todasAsPaginas<Linha>((cursor) => send('GET', `/api/v1/users?name=paginada%20${n}&perPage=10${cursor ? `&cursor=${cursor}` : ''}`), 20);
    expect(paginas.length).toBeGreaterThanOrEqual(2);
    expect(paginas.every((p) => p.length <= 10)).toBe(true);
    expect(paginas.flat().map((u) => u.name)).toEqual(Array.from({ length: 12 }, (_, i) => `Paginada ${n} ${String(i).padStart(2, '0')}`));
    const primeira = await send('GET', `/api/v1/users?name=paginada%20${n}&perPage=10`);
    const p1 = primeira.body as { items: Linha[]; nextCursor?: string };
    expect(p1.nextCursor).toBeTruthy();
    // Excluded by notUsers, on any page.
    expect((await todas(`name=paginada%20${n}&perPage=10&notUsers=${criados[0]},${criados[11]}`)).map((u) => u.id)).toEqual(criados.slice(1, 11));
    // The cursor is bound to its query: another filter or page size answers 400.
    const outra = await send('GET', `/api/v1/users?name=paginada%20${n}&perPage=25&cursor=${p1.nextCursor}`);
    expect(outra.status).toBe(400);
    expect(outra.body).toMatchObject({ error: 'cursorInvalido' });
    // The whole list, a hundred at a time: every user once, an issuer (a certificate login's user) never.
    const emissor = await ensureIssuer(`${n}00000100`.slice(0, 12) + '55', `Emissora Paginada ${n} Ltda`);
    const tudo = await todas('perPage=100');
    expect(emissor.userId).toMatch(/^emissor-/);
    expect(new Set(tudo.map((u) => u.id)).size).toBe(tudo.length);
    expect(tudo.map((u) => u.id)).toEqual(expect.arrayContaining(['demo-admin', ...criados]));
    expect(tudo.map((u) => u.id).filter((id) => id.startsWith('emissor-'))).toEqual([]);
  });
});

describe('profile', () => {
  const png = (() => {
    const image = new PNG({ width: 2, height: 2 });
    image.data.fill(200);
    return PNG.sync.write(image);
  })();

  it('changes the name and the avatar (png), and shows the avatar through a short-lived URL', async () => {
    const token = await sefazToken('gestor@plac.local');
    const image = `data:image/png;base64,${png.toString('base64')}`;
    const { status, body } = await send('PUT', '/api/v1/profile', { name: 'Gestor Demo', email: 'gestor@plac.local', image }, token);
    expect(status).toBe(200);
    const url = (body as { image: string }).image;
    expect(url).toContain('X-Amz-Signature=');
    const got = await fetch(url);
    // Served with its own type, inline, never sniffed; the stored file is the re-encoded image.
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('content-disposition')).toBe('inline');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(PNG.sync.read(Buffer.from(await got.arrayBuffer()))).toMatchObject({ width: 2, height: 2 });
  });

  it('refuses PNG magic bytes followed by a script', async () => {
    const token = await sefazToken('gestor@plac.local');
    const fake = Buffer.concat([png.subarray(0, 8), Buffer.from('<script>alert(document.domain)</script>')]);
    const bad = await send('PUT', '/api/v1/profile', { name: 'Gestor Demo', email: 'gestor@plac.local', image: fake.toString('base64') }, token);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ errors: { image: ['Só são permitidas imagens png ou jpeg.'] } });
  });

  it('refuses a file that is not png or jpeg whatever its name, and one over 3 MB', async () => {
    const token = await sefazToken('gestor@plac.local');
    const pdf = `data:image/png;base64,${Buffer.from('%PDF-1.7 fake').toString('base64')}`;
    const bad = await send('PUT', '/api/v1/profile', { name: 'Gestor Demo', email: 'gestor@plac.local', image: pdf }, token);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ errors: { image: ['Só são permitidas imagens png ou jpeg.'] } });
    const big = Buffer.concat([png, Buffer.alloc(3.5 * 1024 * 1024)]);
    const large = await send('PUT', '/api/v1/profile', { name: 'Gestor Demo', email: 'gestor@plac.local', image: big.toString('base64') }, token);
    expect(large.status).toBe(400);
    expect(large.body).toEqual({ errors: { image: ['A imagem tem 3,5 MB; o tamanho permitido é 3 MB.'] } });
  });
});
