/* Shared by the client's form, its public registration and the trial's registration. */
/** The labels of the client's fields, also for 'O campo {field} é obrigatório.'. */
export const LABELS = {
  cnpj: 'CNPJ',
  razao_social: 'Razão Social',
  logradouro: 'Logradouro',
  numero: 'Número',
  complemento: 'Complemento',
  bairro: 'Bairro',
  uf: 'UF',
  cidade: 'Cidade',
  cep: 'CEP',
  tipo_cliente: 'Tipo de Cliente',
  telefone: 'Telefone',
  nome_responsavel: 'Nome do Responsável',
  email: 'E-mail',
  confirmacao_email: 'Confirmação de e-mail',
  situacao: 'Situação',
  categoria: 'Categoria',
  inicio_sem_certificado: 'Início do acesso sem certificado',
  prazo_sem_certificado: 'Fim do acesso sem certificado',
  recaptcha: 'Captcha',
} as const;
