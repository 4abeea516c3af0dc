import { describe, expect, it } from 'vitest';
import * as bancos from './bancos';
import { bancosOficiais } from './bancos-oficiais';
import * as grupos from './grupos';
import { handler } from './semente';

/** The deploy's seed on the twin's table: every bank of the list and the 27 SEFAZ participants; edits kept; twice is once. */
describe('revenue sharing reference data seed', () => {
  it('writes what is absent only: an edited bank keeps its edit, a second run writes nothing', async () => {
    const lista = bancosOficiais();
    const [primeiro] = lista;
    await handler();
    const antes = (await bancos.porCodigo(primeiro!.codigo))!;
    await bancos.alterar({ codigo: antes.codigo, nome: `${antes.nome} (editado)`, ispb: antes.ispb }, { userId: 't', name: 'Teste', tipo: 'S', roles: ['sefaz_admin'] });
    expect(await handler()).toEqual({ bancosNovos: 0 });
    expect((await bancos.porCodigo(antes.codigo))!.nome).toBe(`${antes.nome} (editado)`);
    expect((await bancos.listar()).length).toBeGreaterThanOrEqual(new Set(lista.map((b) => b.codigo)).size);
    const sefaz = (await grupos.participantes()).filter((p) => p.sefaz);
    expect(sefaz).toHaveLength(27);
    await bancos.alterar({ codigo: antes.codigo, nome: antes.nome, ispb: antes.ispb }, { userId: 't', name: 'Teste', tipo: 'S', roles: ['sefaz_admin'] });
  });
});
