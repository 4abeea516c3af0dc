import { describe, expect, it } from 'vitest';
import { isPdfFileName, podeEnviarArquivo, podeSalvarAutorizacao, situacoesPermitidas, statusAutorizacaoPermitidos } from './instituicoes';

describe('institution status choices', () => {
  it.each([
    ['ATIVA', ['ATIVA', 'DESATIVADA']],
    ['NOVO', ['NOVO', 'ATIVA', 'DESATIVADA']],
    ['PENDENTE', ['PENDENTE', 'ATIVA', 'DESATIVADA']],
    ['DESATIVADA', ['ATIVA']],
  ] as const)('from %s', (from, choices) => {
    expect(situacoesPermitidas(from)).toEqual(choices);
  });
});

describe('authorisation status choices and edit rules', () => {
  it('the administrator: AUTORIZADO ↔ DESATIVADA, all three from PENDENTE', () => {
    expect(statusAutorizacaoPermitidos('AUTORIZADO', ['sefaz_admin'])).toEqual(['AUTORIZADO', 'DESATIVADA']);
    expect(statusAutorizacaoPermitidos('DESATIVADA', ['sefaz_admin'])).toEqual(['DESATIVADA', 'AUTORIZADO']);
    expect(statusAutorizacaoPermitidos('PENDENTE', ['sefaz_admin'])).toEqual(['AUTORIZADO', 'DESATIVADA', 'PENDENTE']);
  });

  it('a client keeps the current status', () => {
    expect(statusAutorizacaoPermitidos('PENDENTE', ['cliente'])).toEqual(['PENDENTE']);
  });

  it('upload: never the administrator, never while AUTORIZADO; Salvar: the administrator, or not AUTORIZADO', () => {
    expect(podeEnviarArquivo('PENDENTE', ['sefaz_admin'])).toBe(false);
    expect(podeEnviarArquivo('AUTORIZADO', ['cliente'])).toBe(false);
    expect(podeEnviarArquivo('DESATIVADA', ['cliente'])).toBe(true);
    expect(podeSalvarAutorizacao('AUTORIZADO', ['sefaz_admin'])).toBe(true);
    expect(podeSalvarAutorizacao('AUTORIZADO', ['cliente'])).toBe(false);
    expect(podeSalvarAutorizacao('PENDENTE', ['cliente'])).toBe(true);
  });

  it('only .pdf names', () => {
    expect(isPdfFileName('Autorização.PDF')).toBe(true);
    expect(isPdfFileName('autorizacao.pdf.exe')).toBe(false);
    expect(isPdfFileName('autorizacao.docx')).toBe(false);
  });
});
