export * from './uf';
export * from './cnpj';
export * from './cpf';
export * from './masks';
export * from './money';
export * from './dates';
export * from './clientes';
export * from './instituicoes';
