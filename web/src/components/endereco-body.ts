import { onlyDigits } from '@plac/shared/domain';
import type { EnderecoValues } from './EnderecoFields';

/**
 * The address and contact fields (EnderecoFields) as the API takes them, for the client's form and
 * its registration alike: texts trimmed, the telephone in digits (the form keeps it masked), the CEP
 * as kept (digits), and the UF the submission already found chosen.
 */
export function enderecoBody(values: EnderecoValues, uf: string) {
  return {
    razao_social: values.razao_social.trim(),
    logradouro: values.logradouro.trim(),
    numero: values.numero.trim(),
    complemento: values.complemento.trim(),
    bairro: values.bairro.trim(),
    uf,
    cidade: values.cidade.trim(),
    cep: values.cep,
    telefone: onlyDigits(values.telefone),
    nome_responsavel: values.nome_responsavel.trim(),
    email: values.email.trim(),
  };
}
