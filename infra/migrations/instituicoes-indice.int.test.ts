import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownTable } from '../../tests/setup/own-table';
import { gravarInstituicaoAntiga, instituicoesAntigas, lerGrupo, paginaDoIndice, primeirasDoRegistro, type InstituicaoRecord } from '../../functions/instituicoes/store';
import { grupoDaPalavra, grupoDaSituacao, grupoDoCnpj } from '../../functions/instituicoes/indice';
import { migrar } from './instituicoes-indice';

/**
 * The institution registry's migration (issue 38) against DynamoDB Local: institutions written as
 * before (one gsi1 partition, no keys) are found beside the keyed ones before it runs, written with
 * their keys by it (a removed one only leaves the partition), found once and in name order after it, and
 * a second run writes nothing.
 */

// On a table of this file's own: the reads see only what the test writes.
beforeAll(() => ownTable());

describe('the institution registry migration', () => {
  it('finds the institutions of before, writes their keys, and can run again', { timeout: 120_000 }, async () => {
    const n = randomUUID().slice(0, 6).toUpperCase().replace(/[^0-9A-Z]/g, '0');
    const agora = new Date().toISOString();
    const inst = (nome: string, cnpj: string, extra: Partial<InstituicaoRecord> = {}): InstituicaoRecord => ({
      instituicaoId: `${cnpj}-${n}`,
      razaoSocial: nome,
      razaoFolded: nome.toLowerCase(),
      cnpj,
      uf: 'BA',
      tipo: 'ESF',
      situacao: 'ATIVA',
      regulada: true,
      createdAt: agora,
      updatedAt: agora,
      ...extra,
    });
    const alfa = inst('Banco Alfa Antigo', `1${n.slice(0, 5)}01`);
    const beta = inst('Banco Beta Antigo', `1${n.slice(0, 5)}02`, { situacao: 'PENDENTE' });
    const removida = inst('Banco Removido Antigo', `1${n.slice(0, 5)}03`, { deletedAt: agora });
    for (const r of [alfa, beta, removida]) await gravarInstituicaoAntiga(r);

    const ids = (items: { instituicaoId: string }[]) => items.map((r) => r.instituicaoId);
    const pelosFiltros = async () => ({
      cnpj: ids((await paginaDoIndice({ grupo: grupoDoCnpj(alfa.cnpj), prefixo: alfa.cnpj.slice(0, 6) }, { perPage: 10, aceita: (r) => r.cnpj.startsWith(alfa.cnpj.slice(0, 6)) })).items),
      pendentes: ids((await paginaDoIndice({ grupo: grupoDaSituacao('PENDENTE') }, { perPage: 10, aceita: (r) => r.situacao === 'PENDENTE' })).items),
      registro: ids(await primeirasDoRegistro(5)),
    });
    // Before: found through the old partition (the removed one never).
    expect(await pelosFiltros()).toEqual({ cnpj: [alfa.instituicaoId, beta.instituicaoId], pendentes: [beta.instituicaoId], registro: [alfa.instituicaoId, beta.instituicaoId] });
    expect((await lerGrupo(grupoDaPalavra('a', 'alfa'), 'alfa')(undefined, 10)).data).toEqual([]);

    expect(await migrar(2)).toBe(3);
    expect(await migrar(2)).toBe(0);
    expect((await instituicoesAntigas(undefined, 10)).data).toEqual([]);

    // After: the same answers, from the keys; the words of the name are keys in the scope of its status.
    expect(await pelosFiltros()).toEqual({ cnpj: [alfa.instituicaoId, beta.instituicaoId], pendentes: [beta.instituicaoId], registro: [alfa.instituicaoId, beta.instituicaoId] });
    expect(ids((await lerGrupo(grupoDaPalavra('a', 'alfa'), 'alf')(undefined, 10)).data)).toEqual([alfa.instituicaoId]);
    expect(ids((await lerGrupo(grupoDaPalavra('o', 'beta'), 'beta')(undefined, 10)).data)).toEqual([beta.instituicaoId]);
    expect((await lerGrupo(grupoDaPalavra('a', 'removido'), 'removido')(undefined, 10)).data).toEqual([]);
  });
});
