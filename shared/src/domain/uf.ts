/** The 27 federative units with their IBGE codes (11..53). */
export const UFS = [
  { codigo: 11, uf: 'RO', nome: 'Rondônia' },
  { codigo: 12, uf: 'AC', nome: 'Acre' },
  { codigo: 13, uf: 'AM', nome: 'Amazonas' },
  { codigo: 14, uf: 'RR', nome: 'Roraima' },
  { codigo: 15, uf: 'PA', nome: 'Pará' },
  { codigo: 16, uf: 'AP', nome: 'Amapá' },
  { codigo: 17, uf: 'TO', nome: 'Tocantins' },
  { codigo: 21, uf: 'MA', nome: 'Maranhão' },
  { codigo: 22, uf: 'PI', nome: 'Piauí' },
  { codigo: 23, uf: 'CE', nome: 'Ceará' },
  { codigo: 24, uf: 'RN', nome: 'Rio Grande do Norte' },
  { codigo: 25, uf: 'PB', nome: 'Paraíba' },
  { codigo: 26, uf: 'PE', nome: 'Pernambuco' },
  { codigo: 27, uf: 'AL', nome: 'Alagoas' },
  { codigo: 28, uf: 'SE', nome: 'Sergipe' },
  { codigo: 29, uf: 'BA', nome: 'Bahia' },
  { codigo: 31, uf: 'MG', nome: 'Minas Gerais' },
  { codigo: 32, uf: 'ES', nome: 'Espírito Santo' },
  { codigo: 33, uf: 'RJ', nome: 'Rio de Janeiro' },
  { codigo: 35, uf: 'SP', nome: 'São Paulo' },
  { codigo: 41, uf: 'PR', nome: 'Paraná' },
  { codigo: 42, uf: 'SC', nome: 'Santa Catarina' },
  { codigo: 43, uf: 'RS', nome: 'Rio Grande do Sul' },
  { codigo: 50, uf: 'MS', nome: 'Mato Grosso do Sul' },
  { codigo: 51, uf: 'MT', nome: 'Mato Grosso' },
  { codigo: 52, uf: 'GO', nome: 'Goiás' },
  { codigo: 53, uf: 'DF', nome: 'Distrito Federal' },
] as const;

export type Uf = (typeof UFS)[number]['uf'];

export const UF_SIGLAS: readonly Uf[] = UFS.map((u) => u.uf);

export function isUf(value: unknown): value is Uf {
  return typeof value === 'string' && (UF_SIGLAS as readonly string[]).includes(value);
}

export function ufByCodigo(codigo: number): Uf | undefined {
  return UFS.find((u) => u.codigo === codigo)?.uf;
}

/**
 * The state's name as its government signs, with the article Portuguese gives it: 'Estado da Bahia',
 * 'Estado do Paraná', 'Estado de São Paulo'; the Federal District is 'Distrito Federal'.
 */
const ARTIGO_DO_ESTADO: Record<Uf, 'da' | 'do' | 'de' | null> = {
  RO: 'de', AC: 'do', AM: 'do', RR: 'de', PA: 'do', AP: 'do', TO: 'do', MA: 'do', PI: 'do', CE: 'do', RN: 'do', PB: 'da', PE: 'de', AL: 'de',
  SE: 'de', BA: 'da', MG: 'de', ES: 'do', RJ: 'do', SP: 'de', PR: 'do', SC: 'de', RS: 'do', MS: 'de', MT: 'de', GO: 'de', DF: null,
};

export function nomeDoEstado(uf: Uf): string {
  const nome = UFS.find((u) => u.uf === uf)!.nome;
  const artigo = ARTIGO_DO_ESTADO[uf];
  return artigo ? `Estado ${artigo} ${nome}` : nome;
}

/** Lower case without accents, for accent- and case-insensitive search. */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase().trim();
}
