import { z } from 'zod';
import { ROLES } from '../access/roles';
import { UF_SIGLAS } from '../domain/uf';

/** Schemas that several contracts share. */

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'Informe um e-mail válido.' }).max(100, { error: 'O e-mail pode ter no máximo 100 caracteres.' }));

/** The password counter of spec 1 section 9 is 20; at least 8 characters with letters and digits. */
export const newPasswordSchema = z
  .string()
  .min(8, { error: 'A senha deve ter de 8 a 20 caracteres, com letras e números.' })
  .max(20, { error: 'A senha deve ter de 8 a 20 caracteres, com letras e números.' })
  .regex(/[A-Za-z]/, { error: 'A senha deve ter de 8 a 20 caracteres, com letras e números.' })
  .regex(/\d/, { error: 'A senha deve ter de 8 a 20 caracteres, com letras e números.' });

/** A password as typed at login: no rule but a sane length (a hash is computed of it). */
export const loginPasswordSchema = z.string().min(1).max(128);

export const roleSchema = z.enum(ROLES);

export const ufSchema = z
  .string()
  .transform((s) => s.toUpperCase())
  .refine((s) => (UF_SIGLAS as readonly string[]).includes(s), { error: 'UF inválida.' });

export const isoDateTime = z.iso.datetime({ offset: true });

/** Page sizes of the lists (spec 2 section 9). */
export const pageQuery = {
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce
    .number()
    .int()
    .refine((n) => [10, 15, 25, 50, 100].includes(n), { error: 'Tamanho de página inválido.' })
    .default(25),
};

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), size: z.number().int() });
}

export const messageResponse = z.object({ message: z.string() });
