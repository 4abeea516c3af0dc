import { UFS } from '@plac/shared/domain';

/** The 27 UFs as a Dropdown offers them ('BA - Bahia'), in the forms and the filters alike. */
export const UF_OPTIONS: { value: string; label: string }[] = UFS.map((u) => ({ value: u.uf, label: `${u.uf} - ${u.nome}` }));
