import { message } from '@plac/shared/messages';
import { describe, expect, it } from 'vitest';
import { pagamentoPosteriorAoArquivo, recusaDaData, recusaDaVersao, VERSOES_SUPORTADAS } from './conferencia';
import { escreverRetorno, lerRetorno, VERSAO_ESCRITA } from './layout';

const BARRAS = '85800000005000000000000000000000000000000001';

const arquivo = (versao?: string) =>
  escreverRetorno({
    convenio: '000123',
    banco: '001',
    nomeBanco: 'Banco do Brasil',
    dataGeracao: '2026-11-20',
    nsa: 42,
    ...(versao === undefined ? {} : { versao }),
    pagamentos: [{ dataPagamento: '2026-11-19', dataCredito: '2026-11-20', codigoBarras: BARRAS, valorRecebido: 500_00 }],
  });

describe('the return file’s layout version (header positions 80–81)', () => {
  it('accepts the versions we read, our own writer’s among them', () => {
    expect(VERSOES_SUPORTADAS).toContain(VERSAO_ESCRITA);
    expect(lerRetorno(arquivo()).cabecalho?.versao).toBe('05');
    for (const v of VERSOES_SUPORTADAS) expect(recusaDaVersao(lerRetorno(arquivo(v)).cabecalho!.versao)).toBeNull();
  });

  it('refuses any other, naming the version found and the ones supported', () => {
    const recusa = recusaDaVersao(lerRetorno(arquivo('04')).cabecalho!.versao);
    expect(recusa).toEqual({ chave: 'retornoVersaoNaoSuportada', vars: { encontrada: "'04'", suportadas: '05, 06, 07' } });
    expect(message(recusa!.chave, recusa!.vars)).toBe(
      "O arquivo de retorno está na versão '04' do layout FEBRABAN de arrecadação; são aceitas as versões 05, 06, 07. O arquivo não foi importado.",
    );
    expect(recusaDaVersao('08')?.vars.encontrada).toBe("'08'");
    expect(recusaDaVersao('  ')?.vars.encontrada).toBe('(em branco)');
    expect(recusaDaVersao('5 ')).not.toBeNull();
  });
});

describe('the return file’s dates', () => {
  it('refuses a file generated after today, and takes one of today or before', () => {
    expect(recusaDaData({ dataGeracao: '2026-11-20' }, '2026-11-20')).toBeNull();
    expect(recusaDaData({ dataGeracao: '2026-11-19' }, '2026-11-20')).toBeNull();
    const recusa = recusaDaData({ dataGeracao: '2026-11-21' }, '2026-11-20');
    expect(recusa).toEqual({ chave: 'retornoDataFutura', vars: { data: '21/11/2026', hoje: '20/11/2026' } });
    expect(message(recusa!.chave, recusa!.vars)).toBe('A data de geração do arquivo de retorno (21/11/2026) é posterior a hoje (20/11/2026). O arquivo não foi importado.');
  });

  it('tells a payment dated after its file', () => {
    const cabecalho = { dataGeracao: '2026-11-20' };
    expect(pagamentoPosteriorAoArquivo({ dataPagamento: '2026-11-19' }, cabecalho)).toBe(false);
    expect(pagamentoPosteriorAoArquivo({ dataPagamento: '2026-11-20' }, cabecalho)).toBe(false);
    expect(pagamentoPosteriorAoArquivo({ dataPagamento: '2026-11-21' }, cabecalho)).toBe(true);
  });
});
