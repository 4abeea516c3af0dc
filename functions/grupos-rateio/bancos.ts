import type { Principal } from '@plac/shared/access';
import type { BodyOf, rateio } from '@plac/shared/contracts';
import { foldText } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { conflict, notFound } from '../platform/errors';
import * as store from './bancos-store';

/**
 * Banks (spec 3, 2.6, 3.8, 7.4 and 8): code (3 digits, the key), name and ISPB (8 digits, unique).
 * The list is seeded from the Central Bank's STR participants with a COMPE code (
 * `bancos-oficiais.ts`); administrators add and correct banks on the banks screen.
 */

type BancoBody = BodyOf<typeof rateio.createBanco>;
export interface Banco {
  codigo: string;
  nome: string;
  ispb: string;
}

const view = (b: store.BancoRecord): Banco => ({ codigo: b.codigo, nome: b.nome, ispb: b.ispb });

export async function listar(): Promise<Banco[]> {
  return (await store.listarBancos()).map(view);
}

/**
 * By code or name: digits match the code's start, anything else is looked for in the name (accents
 * and case ignored). Two characters or fewer: every bank (spec 3, 9).
 */
export async function buscar(termo: string): Promise<Banco[]> {
  const todos = await listar();
  const t = foldText(termo);
  if (t.length <= 2) return todos;
  return todos.filter((b) => (/^\d+$/.test(t) && b.codigo.startsWith(t)) || foldText(b.nome).includes(t) || b.ispb.startsWith(t));
}

export async function porCodigo(codigo: string): Promise<Banco | null> {
  const b = await store.lerBanco(codigo);
  return b ? view(b) : null;
}

export async function criar(body: BancoBody, p: Principal): Promise<{ nome: string; message: string }> {
  const at = new Date().toISOString();
  const r = await store.criarBanco({ ...body, createdAt: at, updatedAt: at, createdBy: p.name, updatedBy: p.name });
  if (r === 'codigoDuplicado') throw conflict('bancoCodigoDuplicado', ['codigo']);
  if (r === 'ispbDuplicado') throw conflict('bancoIspbDuplicado', ['ispb']);
  return { nome: body.nome, message: message('bancoCadastrado', { nome: body.nome }) };
}

export async function alterar(body: BancoBody, p: Principal): Promise<{ nome: string; message: string }> {
  for (let tentativa = 1; tentativa <= 3; tentativa++) {
    const antes = await store.lerBanco(body.codigo);
    if (!antes) throw notFound();
    const r = await store.alterarBanco(antes, { ...antes, nome: body.nome, ispb: body.ispb, updatedAt: new Date().toISOString(), updatedBy: p.name });
    if (r === 'ispbDuplicado') throw conflict('bancoIspbDuplicado', ['ispb']);
    if (r === 'ok') return { nome: body.nome, message: message('bancoAtualizado', { nome: body.nome }) };
  }
  throw conflict('recursoDuplicado');
}

/** The seed (the twin's demo data; a deployment's first load): adds the banks whose code is absent. */
export async function semear(bancos: readonly Banco[], by: string): Promise<number> {
  const at = new Date().toISOString();
  return store.semearBancos(bancos.map((b) => ({ ...b, createdAt: at, updatedAt: at, createdBy: by, updatedBy: by })));
}
