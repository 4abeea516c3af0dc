import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getSession } from '../../lib/session';
import { jsonResponse, renderApp, signIn } from '../../test/render';
import { faturaResumo } from '../../test/faturas';

/**
 * consultar-fatura's tax note and report actions (issue 14 item 5; spec 2 sections 2.9, 5, 7 and 8):
 * the admin's upload (presigned PUT, then the confirmation), the extension refused without a call,
 * the downloads, the consumption report of the invoice's month and the detail ZIP with the banner.
 */

interface Sent {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

function stub(answer: (s: Sent) => Response | Promise<Response>) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const s = { method: init.method ?? 'GET', path: url.pathname, query: url.searchParams, body: init.body };
      sent.push(s);
      return answer(s);
    }),
  );
  return sent;
}

function captureDownload() {
  const saved: { name: string; blob?: Blob } = { name: '' };
  vi.stubGlobal('URL', Object.assign(class extends URL {}, { createObjectURL: vi.fn((blob: Blob) => ((saved.blob = blob), 'blob:x')), revokeObjectURL: vi.fn() }));
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.name = this.download;
  });
  return saved;
}

function textOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('leitura falhou'));
    reader.readAsText(blob);
  });
}

const toasts = (kind: 'success' | 'warn' | 'error') => [...document.querySelectorAll(`.p-toast-message-${kind} .p-toast-detail`)].map((e) => e.textContent);

const FATURA = faturaResumo();
const ROTULO = '05/2026 de Banco Demo S.A.';

async function linha() {
  const table = await screen.findByRole('table', { name: 'Faturas' }, { timeout: 8000 });
  await within(table).findByText('Banco Demo S.A.', undefined, { timeout: 8000 });
  return table;
}

describe('consultar-fatura: tax notes and reports', { timeout: 20_000 }, () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('admin: uploads a PDF (URL, PUT, confirmation) with "Upload realizado com sucesso!" and the list is read again', async () => {
    signIn(['sefaz_admin']);
    let nome: string | null = null;
    const sent = stub((s) => {
      if (s.path === '/api/v1/cliente/get-all-cliente') return jsonResponse(200, []);
      if (s.path === '/api/v1/fatura') return jsonResponse(200, { items: [{ ...FATURA, nomePdfFile: nome }] });
      if (s.path === '/api/v1/fatura/202605-c-1/nota-fiscal/envios')
        return jsonResponse(201, { envioId: '0b7c1e4e-8d0a-4f43-9a43-3d5b7f1f2a10', tipo: 'pdf', contentType: 'application/pdf', url: '/_s3/plac-documents/notas-fiscais/x.pdf?X-Amz-Signature=1', tamanhoMaximo: 4194304 });
      if (s.path.startsWith('/_s3/')) return new Response('', { status: 200 });
      if (s.path === '/api/v1/fatura/202605-c-1/nota-fiscal') {
        nome = 'nota.pdf';
        return jsonResponse(200, { tipo: 'pdf', nomePdfFile: 'nota.pdf', nomeXmlFile: null });
      }
      return jsonResponse(404, {});
    });
    renderApp('/app/fatura/consultarFatura');
    const table = await linha();
    expect(within(table).queryByRole('button', { name: `Baixar PDF da nota fiscal ${ROTULO}` })).toBeNull();
    await userEvent.click(within(table).getByRole('button', { name: `Upload nota fiscal ${ROTULO}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload nota fiscal' });
    const input = dialog.querySelector<HTMLInputElement>('input[type=file]')!;
    expect(input.accept).toBe('.pdf,.xml');
    await userEvent.upload(input, new File(['%PDF-1.4 …%%EOF'], 'nota.pdf', { type: 'application/pdf' }));

    await waitFor(() => expect(toasts('success')).toContain('Upload realizado com sucesso!'));
    const envio = sent.find((s) => s.path.endsWith('/nota-fiscal/envios'))!;
    expect(JSON.parse(envio.body as string)).toEqual({ nomeArquivo: 'nota.pdf' });
    const put = sent.find((s) => s.path.startsWith('/_s3/'))!;
    expect(put.method).toBe('PUT');
    expect((put.body as File).name).toBe('nota.pdf');
    const confirmacao = sent.find((s) => s.path === '/api/v1/fatura/202605-c-1/nota-fiscal')!;
    expect(confirmacao.method).toBe('PUT');
    expect(JSON.parse(confirmacao.body as string)).toEqual({ envioId: '0b7c1e4e-8d0a-4f43-9a43-3d5b7f1f2a10', nomeArquivo: 'nota.pdf' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Upload nota fiscal' })).toBeNull());
    expect(await within(table).findByRole('button', { name: `Baixar PDF da nota fiscal ${ROTULO}` })).toBeTruthy();
  });

  it('admin: another extension is refused with the spec message, without any call', async () => {
    signIn(['sefaz_admin']);
    const sent = stub((s) => (s.path === '/api/v1/fatura' ? jsonResponse(200, { items: [FATURA] }) : jsonResponse(200, [])));
    renderApp('/app/fatura/consultarFatura');
    const table = await linha();
    await userEvent.click(within(table).getByRole('button', { name: `Upload nota fiscal ${ROTULO}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload nota fiscal' });
    const user = userEvent.setup({ applyAccept: false });
    await user.upload(dialog.querySelector<HTMLInputElement>('input[type=file]')!, new File(['x'], 'nota.docx'));
    await waitFor(() => expect(toasts('warn')).toContain('Só são permitidos arquivos com extensão .pdf e .xml.'));
    expect(sent.filter((s) => s.path.includes('nota-fiscal') || s.path.startsWith('/_s3/'))).toEqual([]);
  });

  it('a client user has no upload, and downloads the PDF and the XML under their names', async () => {
    signIn(['cliente'], { clienteId: 'c-1', cnpj: '11222333000181' });
    const saved = captureDownload();
    const sent = stub((s) => {
      if (s.path === '/api/v1/fatura') return jsonResponse(200, { items: [{ ...FATURA, nomePdfFile: 'nota.pdf', nomeXmlFile: 'nota.xml' }] });
      if (s.path === '/api/v1/fatura/202605-c-1/nota-fiscal/pdf') return jsonResponse(200, { nomeArquivo: 'nota.pdf', url: '/_s3/plac-documents/n.pdf' });
      if (s.path === '/api/v1/fatura/202605-c-1/nota-fiscal/xml') return jsonResponse(200, { nomeArquivo: 'nota.xml', url: '/_s3/plac-documents/n.xml' });
      if (s.path.startsWith('/_s3/')) return new Response(s.path.endsWith('.pdf') ? '%PDF-' : '<x/>');
      return jsonResponse(404, {});
    });
    renderApp('/app/fatura/consultarFatura');
    const table = await linha();
    expect(within(table).queryByRole('button', { name: `Upload nota fiscal ${ROTULO}` })).toBeNull();
    await userEvent.click(within(table).getByRole('button', { name: `Baixar PDF da nota fiscal ${ROTULO}` }));
    await waitFor(() => expect(saved.name).toBe('nota.pdf'));
    expect(await textOf(saved.blob!)).toBe('%PDF-');
    await userEvent.click(within(table).getByRole('button', { name: `Baixar XML da nota fiscal ${ROTULO}` }));
    await waitFor(() => expect(saved.name).toBe('nota.xml'));
    expect(sent.filter((s) => s.path.startsWith('/_s3/')).map((s) => s.path)).toEqual(['/_s3/plac-documents/n.pdf', '/_s3/plac-documents/n.xml']);
  });

  it('the detail ZIP runs in the background with the banner and saves detalhamento_fatura.zip', async () => {
    signIn(['cliente'], { clienteId: 'c-1', cnpj: '11222333000181' });
    const saved = captureDownload();
    let responder: ((r: Response) => void) | null = null;
    const sent = stub((s) => {
      if (s.path === '/api/v1/fatura') return jsonResponse(200, { items: [FATURA] });
      // The invoice's detail, made when the month was billed: the job is done, its URL in the first answer.
      if (s.path === '/api/v1/fatura/202605-c-1/detalhamento')
        return jsonResponse(202, { id: 'det-202605-c-1', estado: 'CONCLUIDO', linhas: 3, total: 3, nomeArquivo: 'detalhamento_fatura.zip', url: '/_s3/plac-documents/d.zip' });
      if (s.path.startsWith('/_s3/')) return new Promise<Response>((resolve) => (responder = resolve));
      return jsonResponse(404, {});
    });
    renderApp('/app/fatura/consultarFatura');
    const table = await linha();
    await userEvent.click(within(table).getByRole('button', { name: `Detalhamento (ZIP) ${ROTULO}` }));
    const banner = await screen.findByRole('status');
    expect(banner.textContent).toContain('Processando relatório de consumo');
    expect(banner.textContent).toContain('Banco Demo S.A.');
    expect(getSession().reportProcessing).toMatchObject({ clienteNome: 'Banco Demo S.A.' });
    await waitFor(() => expect(responder).not.toBeNull());
    responder!(new Response('PK'));
    await waitFor(() => expect(saved.name).toBe('detalhamento_fatura.zip'));
    await waitFor(() => expect(screen.queryByText('Processando relatório de consumo')).toBeNull());
    expect(sent.filter((s) => s.path.endsWith('/detalhamento'))).toHaveLength(1);
  });

  it("the consumption report is of the invoice's month and client; its failure shows 'Erro ao gerar relatório de consumo'", async () => {
    signIn(['sefaz_admin']);
    const sent = stub((s) => {
      if (s.path === '/api/v1/fatura') return jsonResponse(200, { items: [FATURA] });
      if (s.path === '/api/v1/consumo/clientes/c-1/relatorio') return jsonResponse(500, { error: 'erroInterno', message: 'Ocorreu um erro interno, contate o administrador do sistema' });
      return jsonResponse(200, []);
    });
    renderApp('/app/fatura/consultarFatura');
    const table = await linha();
    await userEvent.click(within(table).getByRole('button', { name: `Relatório de consumo ${ROTULO}` }));
    expect(await screen.findByText('O relatório de consumo pode levar alguns minutos para ser gerado. Deseja continuar?')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Sim' }));
    await waitFor(() => expect(toasts('error')).toEqual(['Erro ao gerar relatório de consumo']));
    const relatorio = sent.find((s) => s.path === '/api/v1/consumo/clientes/c-1/relatorio')!;
    expect(relatorio.query.get('mes')).toBe('2026-05');
    expect(relatorio.query.get('idModuloServico')).toBeNull();
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
  });
});
