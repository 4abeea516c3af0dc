import { randomInt } from 'node:crypto';
import type { Principal } from '@plac/shared/access';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CLIENTES, DEMO_EMISSOR } from '../../infra/local/demo-data';
import { call, twinUrl } from './http';
import { todasAsPaginas } from './paginas';
import { bearer, tokenFor } from './session';
import { concluirLogin } from '../../infra/local/segundo-fator-demo';

/**
 * Institutions: the institution registry, the ESF authorisations of clients (with the signed PDF and the
 * object-level security between two clients) and the issuer's NOVO institutions.
 */

const ESF = DEMO_CLIENTES.find((c) => c.clienteId === 'demo-esf')!;
const IMF = DEMO_CLIENTES.find((c) => c.clienteId === 'demo-imf')!;
const imfPrincipal: Principal = { userId: 'demo-imf', name: 'Cliente IMF Demo', tipo: 'C', roles: ['cliente', 'cliente_imf'], clienteId: 'demo-imf' };
const emissorPrincipal: Principal = { userId: `emissor-${DEMO_EMISSOR.cnpj}`, name: DEMO_EMISSOR.razaoSocial, tipo: 'C', roles: ['emissor'] };
const outroEmissorPrincipal: Principal = { userId: 'emissor-11444777000161', name: 'Outro Emissor Ltda.', tipo: 'C', roles: ['emissor'] };

let admin: string;
let cliente: string;
let imf: string;
let emissor: string;
let outroEmissor: string;

// The administrator has the demo second factor: the code step follows the password (issue 42).
const login = async (path: string, email: string) =>
  (await concluirLogin(twinUrl(), (await call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'Plac@2026!' }) })).body as { token: string })).token;

beforeAll(async () => {
  admin = await login('/api/v1/authenticate/sefaz', 'admin@plac.local');
  cliente = await login('/api/v1/authenticate/cliente', 'cliente@plac.local');
  imf = await tokenFor(imfPrincipal);
  emissor = await tokenFor(emissorPrincipal);
  outroEmissor = await tokenFor(outroEmissorPrincipal);
});

const send = (method: string, path: string, token: string, body?: unknown) =>
  call(path, { method, headers: { 'content-type': 'application/json', ...bearer(token) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

/** A random valid base CNPJ (8 digits, not all the same). */
function base(): string {
  return String(randomInt(10_000_000, 99_999_999));
}

/** A one-page PDF written by hand: the smallest document a PDF reader opens. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n' +
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
).toString('base64');
const PNG_BYTES = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082', 'hex');
const NOT_PDF = Buffer.from('MZ\x90\x00 this is an executable pretending to be a pdf').toString('base64');

interface Inst {
  id: string;
  cnpj: string;
  razaoSocial: string;
  situacao: string;
  tipo: string | null;
  uf: string;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
}

async function novaInstituicao(overrides: Record<string, unknown> = {}): Promise<Inst> {
  const { status, body } = await send('POST', '/api/v1/instituicao-financeira/admin/create', admin, {
    razaoSocial: `Banco Teste ${randomInt(1e6)} S.A.`,
    cnpj: base(),
    uf: 'BA',
    tipo: 'ESF',
    regulada: true,
    ...overrides,
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return body as Inst;
}

const filtro = (body: Record<string, unknown>) => send('POST', '/api/v1/instituicao-financeira/filtro', admin, { perPage: 100, ...body });

describe('institution registry (sefaz_admin)', () => {
  it('registers an institution as ATIVA with the masked base CNPJ stored as digits, and finds it by each filter', async () => {
    const cnpj = base();
    const masked = `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5)}`;
    const inst = await novaInstituicao({ cnpj: masked, uf: 'pe', tipo: 'IMF', regulada: false });
    expect(inst).toMatchObject({ cnpj, uf: 'PE', tipo: 'IMF', situacao: 'ATIVA', regulada: false, createdBy: 'Administradora Demo' });
    expect(inst.createdAt).toBe(inst.updatedAt);

    for (const f of [{ cnpjBaseEsf: cnpj }, { uf: 'PE', tipo: 'IMF', situacao: 'ATIVA' }]) {
      const { status, body } = await filtro(f);
      expect(status).toBe(200);
      expect((body as { items: Inst[] }).items.map((i) => i.id)).toContain(inst.id);
    }
    const other = await filtro({ uf: 'AM' });
    expect((other.body as { items: Inst[] }).items.map((i) => i.id)).not.toContain(inst.id);
  });

  it('requires at least one filter', async () => {
    const { status, body } = await filtro({});
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: 'filtroObrigatorio', message: 'Informe ao menos um filtro para realizar a pesquisa.' });
  });

  it('accepts any base of 8 characters, repeated digits included (Banco do Brasil is 00.000.000)', async () => {
    const bb = await novaInstituicao({ razaoSocial: 'Banco do Brasil S.A.', cnpj: '00.000.000' });
    expect(bb.cnpj).toBe('00000000');
  });

  it('stores, finds and compares an alphanumeric base in upper case whatever the case typed', async () => {
    const typed = `${randomInt(10, 99)}ab${randomInt(100, 999)}c`.toLowerCase();
    const inst = await novaInstituicao({ cnpj: typed });
    expect(inst.cnpj).toBe(typed.toUpperCase());
    const { body } = await filtro({ cnpjBaseEsf: typed });
    expect((body as { items: Inst[] }).items.map((i) => i.id)).toEqual([inst.id]);
    const again = await send('POST', '/api/v1/instituicao-financeira/admin/create', admin, { razaoSocial: 'Outra', cnpj: typed.toUpperCase(), uf: 'BA', tipo: 'ESF', regulada: false });
    expect(again.status).toBe(409);
  });

  it("refuses an invalid base CNPJ with 'O CNPJ Base informado é inválido.' and writes nothing", async () => {
    for (const cnpj of ['1234567', '12.345.6X', '123456789', '12#45678']) {
      const name = `Inválida ${randomInt(1e6)}`;
      const { status, body } = await send('POST', '/api/v1/instituicao-financeira/admin/create', admin, { razaoSocial: name, cnpj, uf: 'BA', tipo: 'ESF', regulada: false });
      expect(status).toBe(400);
      expect(body).toEqual({ errors: { cnpj: ['O CNPJ Base informado é inválido.'] } });
    }
    const { body } = await filtro({ cnpjBaseEsf: '1234567' });
    expect(body).toEqual({ items: [] });
  });

  it('requires razaoSocial, cnpj, uf and tipo', async () => {
    const { status, body } = await send('POST', '/api/v1/instituicao-financeira/admin/create', admin, {});
    expect(status).toBe(400);
    expect(body).toMatchObject({
      errors: {
        razaoSocial: ['O campo Razão Social é obrigatório.'],
        cnpj: ['O campo CNPJ Base é obrigatório.'],
        uf: ['O campo UF é obrigatório.'],
        tipo: ['O campo Tipo é obrigatório.'],
      },
    });
  });

  it('refuses a second institution with the same base CNPJ', async () => {
    const inst = await novaInstituicao();
    const again = await send('POST', '/api/v1/instituicao-financeira/admin/create', admin, { razaoSocial: 'Outra', cnpj: inst.cnpj, uf: 'SP', tipo: 'ESF' });
    expect(again.status).toBe(409);
    const { body } = await filtro({ cnpjBaseEsf: inst.cnpj });
    expect(body).toMatchObject({ items: [{ razaoSocial: inst.razaoSocial }] });
    expect((body as { items: Inst[] }).items).toHaveLength(1);
  });

  it('edits along the allowed status transitions only; the cnpj never changes; audit dates move', async () => {
    const inst = await novaInstituicao();
    const update = (situacao: string, extra: Record<string, unknown> = {}) =>
      send('PUT', '/api/v1/instituicao-financeira/admin/update', admin, { id: inst.id, razaoSocial: inst.razaoSocial, uf: 'BA', tipo: 'ESF', regulada: true, situacao, ...extra });

    // ATIVA → PENDENTE or NOVO: refused, nothing changes.
    for (const situacao of ['PENDENTE', 'NOVO']) {
      const refused = await update(situacao, { razaoSocial: 'Nome que não deve ficar' });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: 'statusNaoPermitido', message: 'A alteração de status informada não é permitida.' });
    }
    const unchanged = await send('GET', `/api/v1/instituicao-financeira/admin/${inst.id}`, admin);
    expect(unchanged.body).toMatchObject({ situacao: 'ATIVA', razaoSocial: inst.razaoSocial, updatedAt: inst.updatedAt });

    const off = await update('DESATIVADA', { cnpj: '99999998', razaoSocial: 'Nome Novo S.A.' });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ situacao: 'DESATIVADA', cnpj: inst.cnpj, razaoSocial: 'Nome Novo S.A.', createdAt: inst.createdAt });
    expect((off.body as Inst).updatedAt > inst.updatedAt).toBe(true);

    // From DESATIVADA the only choice is ATIVA.
    const stay = await update('DESATIVADA');
    expect(stay.status).toBe(400);
    const on = await update('ATIVA');
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ situacao: 'ATIVA' });
  });

  it('autocompletes by name or base CNPJ from 3 characters, and gives the top 5', async () => {
    const inst = await novaInstituicao({ razaoSocial: `Cooperativa Ágil ${randomInt(1e6)}` });
    const byName = await send('GET', `/api/v1/instituicao-financeira/autocomplete?razaoSocial=${encodeURIComponent('cooperativa agil')}`, admin);
    expect((byName.body as Inst[]).map((i) => i.id)).toContain(inst.id);
    const byCnpj = await send('GET', `/api/v1/instituicao-financeira/autocomplete?razaoSocial=${inst.cnpj.slice(0, 6)}`, cliente);
    expect((byCnpj.body as Inst[]).map((i) => i.id)).toContain(inst.id);
    const short = await send('GET', '/api/v1/instituicao-financeira/autocomplete?razaoSocial=co', admin);
    expect(short.status).toBe(400);
    const top = await send('GET', '/api/v1/instituicao-financeira/top5', cliente);
    expect(top.status).toBe(200);
    expect((top.body as Inst[]).length).toBe(5);
  });

  it('hides deactivated institutions from clients', async () => {
    const { body } = await send('GET', `/api/v1/instituicao-financeira/autocomplete?razaoSocial=${encodeURIComponent('Crédito Desativado')}`, cliente);
    expect(body).toEqual([]);
    const asAdmin = await send('GET', `/api/v1/instituicao-financeira/autocomplete?razaoSocial=${encodeURIComponent('Crédito Desativado')}`, admin);
    expect((asAdmin.body as Inst[])[0]).toMatchObject({ situacao: 'DESATIVADA' });
  });

  it('the registry is the administrator’s only', async () => {
    const { status, body } = await send('POST', '/api/v1/instituicao-financeira/filtro', cliente, { uf: 'BA' });
    expect(status).toBe(403);
    expect(body).toMatchObject({ error: 'acessoNegado' });
  });
});

describe('registry at volume (issue 38): every list a page, every search a key', () => {
  const letras = (n: number) => Array.from({ length: n }, () => String.fromCharCode(65 + randomInt(26))).join('');
  type Pagina = { items: Inst[]; nextCursor?: string };

  it('pages the registry filter by cursor past one page, each institution once in CNPJ order, the cursor bound to its filter', async () => {
    const prefixo = `Q${letras(3)}`;
    const criadas = [];
    for (let i = 0; i < 23; i++) criadas.push(await novaInstituicao({ cnpj: `${prefixo}${String(i).padStart(4, '0')}`, uf: i % 2 ? 'BA' : 'SE' }));
    const paginas = await todasAsPaginas<Inst>((cursor) => filtro({ cnpjBaseEsf: prefixo.toLowerCase(), perPage: 10, ...(cursor ? { cursor } : {}) }));
    expect(paginas.map((p) => p.length)).toEqual([10, 10, 3]);
    expect(paginas.flat().map((x) => x.cnpj)).toEqual(criadas.map((c) => c.cnpj));

    // With another filter beside it: the UF, checked on the key range's items.
    const se = (await filtro({ cnpjBaseEsf: prefixo, uf: 'SE' })).body as Pagina;
    expect(se.items.map((x) => x.cnpj)).toEqual(criadas.filter((c) => c.uf === 'SE').map((c) => c.cnpj));

    const primeira = (await filtro({ cnpjBaseEsf: prefixo, perPage: 10 })).body as Pagina;
    const outra = await filtro({ cnpjBaseEsf: prefixo, uf: 'BA', perPage: 10, cursor: primeira.nextCursor });
    expect(outra.status).toBe(400);
    expect(outra.body).toMatchObject({ error: 'cursorInvalido' });
  });

  it('autocompletes by the start of any word of the name, 20 at most in name order, and follows a rename and a deactivation', async () => {
    const palavra = `Zq${letras(5)}`;
    const nomes = Array.from({ length: 24 }, (_, i) => `Financeira ${palavra} ${String.fromCharCode(65 + i)} S.A.`);
    const criadas = [];
    for (const razaoSocial of nomes) criadas.push(await novaInstituicao({ razaoSocial }));
    const sugerir = async (texto: string, token = admin) => {
      const { status, body } = await send('GET', `/api/v1/instituicao-financeira/autocomplete?razaoSocial=${encodeURIComponent(texto)}`, token);
      expect(status).toBe(200);
      return body as Inst[];
    };
    const achadas = await sugerir(palavra.slice(0, 5).toLowerCase());
    expect(achadas.map((x) => x.razaoSocial)).toEqual(nomes.slice(0, 20));
    // Two words, in any order, each the start of a word of the name.
    expect((await sugerir(`${palavra} financ`)).map((x) => x.razaoSocial)).toEqual(nomes.slice(0, 20));
    expect((await sugerir(`fin ${palavra} x s`)).map((x) => x.razaoSocial)).toEqual([nomes[23]]);
    // A part inside a word is not a key.
    expect(await sugerir(palavra.slice(1))).toEqual([]);

    const alvo = criadas[0]!;
    const renomeada = await send('PUT', '/api/v1/instituicao-financeira/admin/update', admin, { id: alvo.id, razaoSocial: `Crediteca ${palavra}novo`, uf: 'BA', tipo: 'ESF', regulada: true, situacao: 'DESATIVADA' });
    expect(renomeada.status).toBe(200);
    expect((await sugerir(`financeira ${palavra}`)).map((x) => x.id)).not.toContain(alvo.id);
    expect((await sugerir(`${palavra}novo crediteca`)).map((x) => x.id)).toEqual([alvo.id]);
    // Deactivated: the client no longer finds it; the administrator does.
    expect(await sugerir(`${palavra}novo`, cliente)).toEqual([]);
    const porUf = (await filtro({ situacao: 'DESATIVADA', uf: 'BA', perPage: 100 })).body as Pagina;
    expect(porUf.items.map((x) => x.id)).toContain(alvo.id);
  });

  it('finds an institution stored before the keys (issue 38) until it is written again, then by its keys', async () => {
    const store = await import('../../functions/instituicoes/store');
    const agora = new Date().toISOString();
    const palavra = `Legado${letras(6)}`;
    const record = {
      instituicaoId: `legado-${letras(10)}`,
      razaoSocial: `Banco ${palavra} S.A.`,
      razaoFolded: `banco ${palavra.toLowerCase()} s.a.`,
      cnpj: `L${letras(3)}0001`,
      uf: 'AC',
      tipo: 'ESF' as const,
      situacao: 'ATIVA' as const,
      regulada: true,
      createdAt: agora,
      updatedAt: agora,
    };
    await store.gravarInstituicaoAntiga(record);
    const procurar = async () => ({
      nome: ((await send('GET', `/api/v1/instituicao-financeira/autocomplete?razaoSocial=${palavra}`, cliente)).body as Inst[]).map((x) => x.id),
      filtro: ((await filtro({ cnpjBaseEsf: record.cnpj })).body as Pagina).items.map((x) => x.id),
      uf: ((await filtro({ uf: 'AC', perPage: 100 })).body as Pagina).items.map((x) => x.id),
    });
    expect(await procurar()).toEqual({ nome: [record.instituicaoId], filtro: [record.instituicaoId], uf: expect.arrayContaining([record.instituicaoId]) });
    expect(await store.indexarInstituicaoAntiga(record.instituicaoId)).toBe(true);
    expect(await store.indexarInstituicaoAntiga(record.instituicaoId)).toBe(false);
    expect(await procurar()).toEqual({ nome: [record.instituicaoId], filtro: [record.instituicaoId], uf: expect.arrayContaining([record.instituicaoId]) });
    const antigas = await store.instituicoesAntigas(undefined, 1000);
    expect(antigas.data.map((r) => r.instituicaoId)).not.toContain(record.instituicaoId);
    expect((await send('GET', `/api/v1/instituicao-financeira/admin/${record.instituicaoId}`, admin)).body).toMatchObject({ updatedAt: agora, razaoSocial: record.razaoSocial });
  });
});

describe('ESF authorisations', () => {
  const criar = (token: string, body: Record<string, unknown>) => send('POST', '/api/v1/instituicao-financeira/autorizacao', token, body);
  const listar = (token: string, body: Record<string, unknown>) => send('POST', '/api/v1/instituicao-financeira/autorizacoes', token, { page: 1, size: 100, ...body });
  const detalhe = (token: string, cnpjCliente: string, cnpjInst: string) =>
    send('GET', `/api/v1/instituicao-financeira/autorizacao?cnpjCliente=${cnpjCliente}&cnpjInstFinanceira=${cnpjInst}`, token);
  const atualizar = (token: string, body: Record<string, unknown>) => send('PUT', '/api/v1/instituicao-financeira/atualizacao', token, body);

  it('the new-institution dialog creates a PENDENTE institution', async () => {
    const cnpj = base();
    const { status, body } = await send('POST', '/api/v1/instituicao-financeira', cliente, { razaoSocial: 'Nova Pelo Cliente Ltda.', cnpj, uf: 'SE' });
    expect(status).toBe(201);
    expect(body).toMatchObject({ cnpj, uf: 'SE', situacao: 'PENDENTE', createdBy: 'Cliente Demo', tipo: null });
    const missing = await send('POST', '/api/v1/instituicao-financeira', cliente, { razaoSocial: '' });
    expect(missing.status).toBe(400);
    expect(Object.keys((missing.body as { errors: object }).errors).sort()).toEqual(['cnpj', 'razaoSocial', 'uf']);
  });

  it('a client authorises an institution with a PDF; the administrator authorises it with a justification; the client sees it and downloads the PDF', async () => {
    const inst = await novaInstituicao();
    const created = await criar(cliente, { cliente: ESF.cnpj, instituicaoFinanceira: inst.cnpj, arquivo: PDF, nomeArquivo: 'autorização assinada.pdf' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      message: 'Autorização foi criada com sucesso!',
      autorizacao: { cnpjCliente: ESF.cnpj, razaoSocialCliente: ESF.razaoSocial, cnpjInstFinanceira: inst.cnpj, razaoSocialInstFinanceira: inst.razaoSocial, status: 'PENDENTE', justificativa: null },
    });
    const again = await criar(cliente, { cliente: ESF.cnpj, instituicaoFinanceira: inst.cnpj, arquivo: PDF, nomeArquivo: 'b.pdf' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'autorizacaoDuplicada' });

    // Administrator: a status change needs the justification.
    const noReason = await atualizar(admin, { cnpjCliente: ESF.cnpj, cnpjInstFinanceira: inst.cnpj, status: 'AUTORIZADO' });
    expect(noReason.status).toBe(400);
    expect(noReason.body).toEqual({ errors: { justificativa: ['O campo Justificativa é obrigatório.'] } });
    expect((await detalhe(admin, ESF.cnpj, inst.cnpj)).body).toMatchObject({ status: 'PENDENTE' });

    const ok = await atualizar(admin, { cnpjCliente: ESF.cnpj, cnpjInstFinanceira: inst.cnpj, status: 'AUTORIZADO', justificativa: 'Documento conferido.' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ message: 'Autorização foi atualizada com sucesso', autorizacao: { status: 'AUTORIZADO', justificativa: 'Documento conferido.' } });

    // From AUTORIZADO the administrator may choose only AUTORIZADO or DESATIVADA.
    const back = await atualizar(admin, { cnpjCliente: ESF.cnpj, cnpjInstFinanceira: inst.cnpj, status: 'PENDENTE', justificativa: 'Voltar' });
    expect(back.status).toBe(400);
    expect(back.body).toMatchObject({ error: 'statusNaoPermitido' });

    // The client: sees the new status, cannot change it, cannot replace the file of an AUTORIZADO item.
    const seen = await detalhe(cliente, ESF.cnpj, inst.cnpj);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ status: 'AUTORIZADO', justificativa: 'Documento conferido.', nomeArquivo: 'autorizacao_assinada.pdf' });
    const file = await fetch((seen.body as { urlArquivo: string }).urlArquivo);
    expect(file.status).toBe(200);
    // A user file is a download with its checked type, never rendered or sniffed by the browser.
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="autorizacao_assinada.pdf"');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await file.arrayBuffer()).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const byClient = await atualizar(cliente, { cnpjCliente: ESF.cnpj, cnpjInstFinanceira: inst.cnpj, status: 'DESATIVADA' });
    expect(byClient.status).toBe(400);
    expect(byClient.body).toMatchObject({ error: 'statusNaoPermitido' });
    const upload = await atualizar(cliente, { cnpjCliente: ESF.cnpj, cnpjInstFinanceira: inst.cnpj, arquivo: PDF, nomeArquivo: 'novo.pdf' });
    expect(upload.status).toBe(400);
    expect(upload.body).toMatchObject({ error: 'autorizacaoNaoEditavel' });
    expect((await detalhe(cliente, ESF.cnpj, inst.cnpj)).body).toMatchObject({ status: 'AUTORIZADO', nomeArquivo: 'autorizacao_assinada.pdf' });
  });

  it("accepts only PDF content: a disguised file, another extension or an oversized file is refused and nothing is written", async () => {
    const inst = await novaInstituicao();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ arquivo: NOT_PDF, nomeArquivo: 'autorizacao.pdf' }, 'conteudoNaoPdf', 'O conteúdo do arquivo não é um PDF válido.'],
      [{ arquivo: PNG_BYTES.toString('base64'), nomeArquivo: 'foto.pdf' }, 'conteudoNaoPdf', 'O conteúdo do arquivo não é um PDF válido.'],
      [{ arquivo: Buffer.from('%PDF-<html><script>alert(1)</script></html>').toString('base64'), nomeArquivo: 'a.pdf' }, 'conteudoNaoPdf', 'O conteúdo do arquivo não é um PDF válido.'],
      [{ arquivo: PDF, nomeArquivo: 'autorizacao.docx' }, 'somentePdf', 'Só são permitidos arquivos com extensão .pdf.'],
      [{ arquivo: 'não é base64!', nomeArquivo: 'autorizacao.pdf' }, 'conteudoNaoPdf', 'O conteúdo do arquivo não é um PDF válido.'],
      [{ arquivo: Buffer.concat([Buffer.from(PDF, 'base64'), Buffer.alloc(Math.round(4.4 * 1024 * 1024))]).toString('base64'), nomeArquivo: 'grande.pdf' }, 'arquivoGrandeDemais', 'O arquivo pode ter no máximo 4 MB.'],
    ];
    for (const [file, error, text] of cases) {
      const { status, body } = await criar(cliente, { cliente: ESF.cnpj, instituicaoFinanceira: inst.cnpj, ...file });
      expect(status).toBe(400);
      expect(body).toEqual({ error, message: text });
    }
    const required = await criar(cliente, { cliente: ESF.cnpj });
    expect(required.status).toBe(400);
    expect(Object.keys((required.body as { errors: object }).errors).sort()).toEqual(['arquivo', 'instituicaoFinanceira', 'nomeArquivo']);
    const { body } = await listar(cliente, { instituicaoFinanceira: inst.cnpj });
    expect(body).toMatchObject({ total: 0 });
  });

  it('refuses a deactivated institution', async () => {
    const { status, body } = await criar(cliente, { cliente: ESF.cnpj, instituicaoFinanceira: '99001122', arquivo: PDF, nomeArquivo: 'a.pdf' });
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: 'instituicaoIndisponivel' });
  });

  it('lists with the authorisation list rules: a client is required, start not after end', async () => {
    const inst = await novaInstituicao();
    expect((await criar(cliente, { cliente: ESF.cnpj, instituicaoFinanceira: inst.cnpj, arquivo: PDF, nomeArquivo: 'a.pdf' })).status).toBe(201);
    const today = new Date(Date.now() - 3 * 3600_000).toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 21 * 3600_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 27 * 3600_000).toISOString().slice(0, 10);

    // A malformed client CNPJ is the caller's error (400 with the field's message), not a missing record.
    const malformed = await listar(admin, { cnpjCliente: '11.222.333/0001-00' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ errors: { cnpjCliente: ['O Cnpj informado é inválido.'] } });

    const noClient = await listar(admin, {});
    expect(noClient.status).toBe(400);
    expect(noClient.body).toEqual({ error: 'clientePlacObrigatorio', message: 'É necessário selecionar um cliente PLAC' });

    const order = await listar(admin, { cnpjCliente: ESF.cnpj, dataInicial: tomorrow, dataFinal: today });
    expect(order.status).toBe(400);
    expect(order.body).toEqual({ error: 'dataInicioMaiorDataFim', message: 'Data Início maior que Data Fim.' });

    const ids = (r: { body: unknown }) => (r.body as { items: { cnpjInstFinanceira: string }[] }).items.map((a) => a.cnpjInstFinanceira);
    // A missing final date takes the initial date: yesterday alone does not reach today's.
    expect(ids(await listar(admin, { cnpjCliente: ESF.cnpj, dataInicial: today }))).toContain(inst.cnpj);
    expect(ids(await listar(admin, { cnpjCliente: ESF.cnpj, dataInicial: yesterday }))).not.toContain(inst.cnpj);
    expect(ids(await listar(admin, { cnpjCliente: ESF.cnpj, dataInicial: yesterday, dataFinal: today, status: 'PENDENTE', instituicaoFinanceira: inst.cnpj }))).toEqual([inst.cnpj]);
    expect(ids(await listar(admin, { cnpjCliente: ESF.cnpj, status: 'DESATIVADA', instituicaoFinanceira: inst.cnpj }))).toEqual([]);
    // The client has its client fixed: without naming it, it gets its own.
    expect(ids(await listar(cliente, {}))).toContain(inst.cnpj);
  });

  it("object-level security: a client reaches only its own client's authorisations", async () => {
    const inst = await novaInstituicao();
    expect((await criar(cliente, { cliente: ESF.cnpj, instituicaoFinanceira: inst.cnpj, arquivo: PDF, nomeArquivo: 'esf.pdf' })).status).toBe(201);

    // The IMF client asks for the ESF client's data in every way: 403, nothing written.
    const refused = [
      await listar(imf, { cnpjCliente: ESF.cnpj }),
      await detalhe(imf, ESF.cnpj, inst.cnpj),
      await criar(imf, { cliente: ESF.cnpj, instituicaoFinanceira: inst.cnpj, arquivo: PDF, nomeArquivo: 'x.pdf' }),
      await atualizar(imf, { cnpjCliente: ESF.cnpj, cnpjInstFinanceira: inst.cnpj, arquivo: PDF, nomeArquivo: 'x.pdf' }),
    ];
    for (const r of refused) {
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ error: 'clienteNaoPermitido' });
    }
    expect((await detalhe(cliente, ESF.cnpj, inst.cnpj)).body).toMatchObject({ nomeArquivo: 'esf.pdf' });

    // Its own list does not show the other client's; its own authorisation works.
    const own = await listar(imf, {});
    expect(own.status).toBe(200);
    expect((own.body as { items: { cnpjCliente: string }[] }).items.every((a) => a.cnpjCliente === IMF.cnpj)).toBe(true);
    const mine = await criar(imf, { cliente: IMF.cnpj, instituicaoFinanceira: inst.cnpj, arquivo: PDF, nomeArquivo: 'imf.pdf' });
    expect(mine.status).toBe(201);
    expect((await detalhe(cliente, ESF.cnpj, inst.cnpj)).body).toMatchObject({ nomeArquivo: 'esf.pdf' });
    // And the ESF client cannot read the IMF client's.
    expect((await detalhe(cliente, IMF.cnpj, inst.cnpj)).status).toBe(403);

    const options = await send('GET', '/api/v1/instituicao-financeira/clientes', imf);
    expect(options.body).toEqual([{ id: 'demo-imf', cnpj: IMF.cnpj, razaoSocial: IMF.razaoSocial }]);
    const all = await send('GET', '/api/v1/instituicao-financeira/clientes', admin);
    expect((all.body as unknown[]).length).toBeGreaterThanOrEqual(DEMO_CLIENTES.length);
  });

  it('a client replaces the file of a PENDENTE authorisation (PDF only); the administrator may not upload', async () => {
    const inst = await novaInstituicao();
    await criar(cliente, { cliente: ESF.cnpj, instituicaoFinanceira: inst.cnpj, arquivo: PDF, nomeArquivo: 'v1.pdf' });
    const bad = await atualizar(cliente, { cnpjCliente: ESF.cnpj, cnpjInstFinanceira: inst.cnpj, arquivo: NOT_PDF, nomeArquivo: 'v2.pdf' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'conteudoNaoPdf', message: 'O conteúdo do arquivo não é um PDF válido.' });
    expect((await detalhe(cliente, ESF.cnpj, inst.cnpj)).body).toMatchObject({ nomeArquivo: 'v1.pdf' });
    const good = await atualizar(cliente, { cnpjCliente: ESF.cnpj, cnpjInstFinanceira: inst.cnpj, arquivo: PDF, nomeArquivo: 'v2.pdf' });
    expect(good.status).toBe(200);
    expect(good.body).toMatchObject({ message: 'Autorização foi atualizada com sucesso', autorizacao: { nomeArquivo: 'v2.pdf', status: 'PENDENTE' } });
    const byAdmin = await atualizar(admin, { cnpjCliente: ESF.cnpj, cnpjInstFinanceira: inst.cnpj, arquivo: PDF, nomeArquivo: 'v3.pdf' });
    expect(byAdmin.status).toBe(403);
  });

  it('only a client user creates authorisations', async () => {
    const { status } = await criar(admin, { cliente: ESF.cnpj, instituicaoFinanceira: '33445566', arquivo: PDF, nomeArquivo: 'a.pdf' });
    expect(status).toBe(403);
  });
});

describe("issuer's institutions (only the NOVO ones it created)", () => {
  it('creates NOVO institutions on its own CNPJ, and edits and deletes only those', async () => {
    const cnpj = base();
    const created = await send('POST', '/api/v1/emissor/instituicao_financeira/create', emissor, { razaoSocial: 'Fomento do Emissor Ltda.', cnpj, uf: 'BA' });
    expect(created.status).toBe(201);
    const inst = created.body as Inst;
    expect(inst).toMatchObject({ cnpj, situacao: 'NOVO', createdBy: DEMO_EMISSOR.cnpj, updatedAt: null });

    const mine = await send('GET', `/api/v1/emissor/instituicao-financeira/autocomplete?razaoSocial=${cnpj.slice(0, 5)}`, emissor);
    expect((mine.body as Inst[]).map((i) => i.id)).toEqual([inst.id]);
    const theirs = await send('GET', `/api/v1/emissor/instituicao-financeira/autocomplete?razaoSocial=${cnpj.slice(0, 5)}`, outroEmissor);
    expect(theirs.body).toEqual([]);
    const top = await send('GET', '/api/v1/emissor/instituicao-financeira/top5', emissor);
    expect((top.body as Inst[]).every((i) => i.situacao === 'ATIVA' || i.createdBy === DEMO_EMISSOR.cnpj)).toBe(true);

    // Another issuer can neither edit nor delete it.
    const otherEdit = await send('PUT', '/api/v1/emissor/instituicao_financeira/update', outroEmissor, { id: inst.id, razaoSocial: 'Tomada', uf: 'SP' });
    expect(otherEdit.status).toBe(403);
    expect(otherEdit.body).toMatchObject({ error: 'instituicaoNaoEditavel' });
    expect((await send('POST', '/api/v1/emissor/instituicao_financeira/delete', outroEmissor, { id: inst.id })).status).toBe(403);

    const edited = await send('PUT', '/api/v1/emissor/instituicao_financeira/update', emissor, { id: inst.id, razaoSocial: 'Fomento Renomeado Ltda.', uf: 'SE' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ razaoSocial: 'Fomento Renomeado Ltda.', uf: 'SE', situacao: 'NOVO' });
    expect((edited.body as { updatedAt: string | null }).updatedAt).not.toBeNull();

    const removed = await send('POST', '/api/v1/emissor/instituicao_financeira/delete', emissor, { id: inst.id });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ message: 'Instituição removida com sucesso' });
    expect((await send('GET', `/api/v1/instituicao-financeira/admin/${inst.id}`, admin)).status).toBe(404);
    // Its base CNPJ is free again.
    expect((await send('POST', '/api/v1/emissor/instituicao_financeira/create', emissor, { razaoSocial: 'De Novo Ltda.', cnpj, uf: 'BA' })).status).toBe(201);
  });

  it('cannot edit or delete an institution that is not NOVO, even one it created once activated', async () => {
    const created = await send('POST', '/api/v1/emissor/instituicao_financeira/create', emissor, { razaoSocial: 'Vai Ser Ativada Ltda.', cnpj: base(), uf: 'BA' });
    const inst = created.body as Inst;
    const activated = await send('PUT', '/api/v1/instituicao-financeira/admin/update', admin, { id: inst.id, razaoSocial: inst.razaoSocial, uf: 'BA', tipo: 'ESF', regulada: false, situacao: 'ATIVA' });
    expect(activated.status).toBe(200);
    const edit = await send('PUT', '/api/v1/emissor/instituicao_financeira/update', emissor, { id: inst.id, razaoSocial: 'X', uf: 'BA' });
    expect(edit.status).toBe(403);
    expect((await send('POST', '/api/v1/emissor/instituicao_financeira/delete', emissor, { id: 'demo-inst-banco' })).status).toBe(403);
  });

  it('the seeded NOVO institution belongs to the demo issuer', async () => {
    const { body } = await send('GET', `/api/v1/emissor/instituicao-financeira/autocomplete?razaoSocial=${encodeURIComponent('Factoring Nova')}`, emissor);
    expect(body).toMatchObject([{ id: 'demo-inst-novo', situacao: 'NOVO', createdBy: DEMO_EMISSOR.cnpj }]);
  });
});
