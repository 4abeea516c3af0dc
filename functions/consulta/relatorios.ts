import { foldText, isValidChaveAcesso, todayInBahia } from '@plac/shared/domain';
import { comCessoes } from '../cessao/service';
import * as fate from '../fate/service';
import { HttpError, invalid } from '../platform/errors';
import { fateView } from './view';

/** The administrator's free look-up and the carrier quantity report: not charged, not recorded. */

/** Type 1 is an NF-e's key; type 2 an MDF-e's, whose documents the platform does not load. The instalments carry their assignments. */
export async function consultaLivre(tipo: '1' | '2', chave: string) {
  if (tipo === '1' && !isValidChaveAcesso(chave)) throw invalid('campoInvalido', { field: 'chave de acesso' });
  const f = tipo === '1' ? await fate.fatePorChave(chave) : null;
  if (!f) throw new HttpError(404, 'fateNaoEncontrada');
  // Each instalment with its registered assignment (functions/cessao), shown in the screen's instalment table.
  return comCessoes(fateView(f));
}

export async function listaTransportadores() {
  return (await fate.transportadores()).sort((a, b) => a.nome.localeCompare(b.nome, 'pt-BR'));
}

export interface FiltroQtd {
  cnpjTransportadora?: string | undefined;
  razaoSocialTransportadora?: string | undefined;
  /** MM/AAAA */
  dataFaturaIni: string;
  dataFaturaFim: string;
  page: number;
  perPage: number;
}

const mes = (mmAaaa: string) => `${mmAaaa.slice(3)}-${mmAaaa.slice(0, 2)}`;
/** The first instant of a Bahia month (UTC-3). */
const inicioDoMes = (aaaaMm: string) => `${aaaaMm}-01T03:00:00.000Z`;
function mesSeguinte(aaaaMm: string): string {
  const [a, m] = aaaaMm.split('-').map(Number) as [number, number];
  return m === 12 ? `${a + 1}-01` : `${a}-${String(m + 1).padStart(2, '0')}`;
}

/**
 * Fat-e per carrier and receipt day (the day, in Bahia, the document was issued) in the months asked
 * (at most 12), each carrier's total on its rows and the grand total; rows by carrier name and day,
 * paged. Carriers are filtered by CNPJ/CPF (its digits contain the text) and name (accents ignored).
 */
export async function qtdFateTransportadora(f: FiltroQtd) {
  const de = mes(f.dataFaturaIni);
  const ate = mes(f.dataFaturaFim);
  if (de > ate) throw invalid('dataInicioMaiorDataFim');
  const meses = (Number(ate.slice(0, 4)) - Number(de.slice(0, 4))) * 12 + Number(ate.slice(5)) - Number(de.slice(5)) + 1;
  if (meses > 12) throw invalid('periodoMaximoUmAno');

  const documento = f.cnpjTransportadora?.replace(/[^0-9A-Z]/g, '') ?? '';
  const nome = foldText(f.razaoSocialTransportadora ?? '');
  const carriers = (await listaTransportadores()).filter((t) => t.documento.includes(documento) && foldText(t.nome).includes(nome));
  const porTransportador = await Promise.all(
    carriers.map(async (t) => {
      const fates = await fate.fatesDoTransportador(t.documento, inicioDoMes(de), inicioDoMes(mesSeguinte(ate)));
      const dias = new Map<string, number>();
      for (const x of fates) {
        const dia = todayInBahia(new Date(x.emissao));
        dias.set(dia, (dias.get(dia) ?? 0) + 1);
      }
      return [...dias].sort(([a], [b]) => a.localeCompare(b)).map(([dia, qtd]) => ({ cnpj: t.documento, nome: t.nome, dhRecbto: dia, qtdFate: qtd, total: fates.length }));
    }),
  );
  const linhas = porTransportador.flat();
  const inicio = (f.page - 1) * f.perPage;
  return {
    linhas: linhas.slice(inicio, inicio + f.perPage),
    totalLinhas: linhas.length,
    totalGeral: linhas.reduce((s, l) => s + l.qtdFate, 0),
  };
}
