import { describe, expect, it } from 'vitest';
import { call } from './http';

describe('dominio', () => {
  it('lists the 27 UFs', async () => {
    const { status, body } = await call('/api/v1/dominio/uf');
    expect(status).toBe(200);
    expect(body).toHaveLength(27);
    expect(body).toEqual(expect.arrayContaining(['AC', 'BA', 'DF', 'SP', 'TO']));
  });

  it('lists the UFs with their IBGE codes', async () => {
    const { status, body } = await call('/api/v1/dominio/uf-completa');
    expect(status).toBe(200);
    expect(body).toHaveLength(27);
    expect(body).toContainEqual({ codigo: 29, uf: 'BA', nome: 'Bahia' });
    expect(body).toContainEqual({ codigo: 53, uf: 'DF', nome: 'Distrito Federal' });
  });

  it('finds Salvador by its first letters', async () => {
    const { status, body } = await call('/api/v1/dominio/cidades/BA/salv');
    expect(status).toBe(200);
    expect(body).toContainEqual({ codigo: 2927408, nome: 'Salvador' });
  });

  it('ignores accents and case, and a lower-case UF', async () => {
    const accented = await call(`/api/v1/dominio/cidades/sp/${encodeURIComponent('SÃO PAU')}`);
    const plain = await call('/api/v1/dominio/cidades/SP/sao%20pau');
    expect(accented.status).toBe(200);
    expect(accented.body).toContainEqual({ codigo: 3550308, nome: 'São Paulo' });
    expect(plain.body).toEqual(accented.body);
  });

  it('matches inside the name, with names that start with the text first', async () => {
    const { body } = await call('/api/v1/dominio/cidades/BA/vador');
    expect((body as { nome: string }[]).map((c) => c.nome)).toContain('Salvador');
    const { body: feira } = await call('/api/v1/dominio/cidades/BA/feira');
    const names = (feira as { nome: string }[]).map((c) => c.nome);
    expect(names[0]).toBe('Feira da Mata');
    expect(names).toContain('Feira de Santana');
  });

  it('returns an empty list when nothing matches', async () => {
    const { status, body } = await call('/api/v1/dominio/cidades/DF/xyzw');
    expect(status).toBe(200);
    expect(body).toEqual([]);
  });

  it('refuses a text shorter than three characters with a pt-BR field message', async () => {
    const { status, body } = await call('/api/v1/dominio/cidades/BA/sa');
    expect(status).toBe(400);
    expect(body).toEqual({ errors: { text: ['Informe pelo menos 3 caracteres para buscar a cidade.'] } });
  });

  it('refuses an unknown UF', async () => {
    const { status, body } = await call('/api/v1/dominio/cidades/XX/salv');
    expect(status).toBe(400);
    expect(body).toEqual({ errors: { uf: ['UF inválida.'] } });
  });
});
