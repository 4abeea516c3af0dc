/** The trial area's public paths (under the trial layout) and shared texts. */
export const CADASTRO_PATH = '/degustacao/cliente';
export const CADASTRO_TESTE_PATH = '/degustacao/cadastroTeste';
export const AUTORIZACAO_PATH = '/degustacao/autorizacao';
export const CONSULTA_PATH = '/degustacao/consulta';

/**
 * ours: the trial consent. The spec: 'The trial consent text carries the company name and cnpj, taken
 * from the user' — here, as typed in the form (placeholders until then).
 */
export function termoDegustacao(razaoSocial: string, cnpjFormatado: string): string {
  const empresa = razaoSocial.trim() || '[Razão Social]';
  const cnpj = cnpjFormatado || '[CNPJ]';
  return (
    `Declaro que ${empresa}, CNPJ ${cnpj}, solicita acesso de testes (degustação) à PLAC Fat-e, ` +
    'para uso exclusivo na avaliação da plataforma, e que as consultas de testes são limitadas às chaves de acesso disponibilizadas.'
  );
}
