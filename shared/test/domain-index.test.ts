import { describe, expect, it } from 'vitest';
import { z } from '../src/validation';
import * as domain from '../src/domain';

describe('domain index', () => {
  it('exports every module, uf included', () => {
    for (const name of [
      'UFS',
      'isUf',
      'foldText',
      'isValidCnpj',
      'cnpjSchema',
      'isValidCpf',
      'MASKS',
      'formatCep',
      'formatBRL',
      'multiplyMilesimos',
      'formatDate',
      'validateDateRange',
    ]) {
      expect(domain, name).toHaveProperty(name);
    }
  });
});

describe('the schemas under the app’s zod configuration (validation.ts)', () => {
  const form = z.object({ cnpj: domain.cnpjSchema, cpf: domain.cpfSchema, base: domain.cnpjBaseSchema });

  it('a missing value gets the required message, a wrong one the rule’s message', () => {
    const result = form.safeParse({ cnpj: '11.222.333/0001-82' });
    expect(result.success).toBe(false);
    const byField = Object.fromEntries(result.error!.issues.map((i) => [i.path.join('.'), i.message]));
    expect(byField).toEqual({
      cnpj: 'O Cnpj informado é inválido.',
      // The field is named by the error map itself (its title, else its key): no '{field}' left over.
      cpf: 'O campo CPF é obrigatório.',
      base: 'O campo base é obrigatório.',
    });
  });

  it('valid values come out normalized', () => {
    expect(form.parse({ cnpj: '12.abc.345/01de-35', cpf: '529.982.247-25', base: '11.222.333' })).toEqual({
      cnpj: '12ABC34501DE35',
      cpf: '52998224725',
      base: '11222333',
    });
  });

  it('stay plain strings in JSON Schema (the OpenAPI document)', () => {
    expect(z.toJSONSchema(domain.cnpjSchema, { io: 'output' })).toMatchObject({ type: 'string' });
  });
});
