import type * as verificacao from './caller-certificate';

/**
 * The caller's e-CNPJ, checked (caller-certificate.ts: the chain to the ICP-Brasil roots, validity,
 * revocation). Its parsers (asn1js, @peculiar/asn1-x509: ~135 KiB with the trust store) are loaded by
 * the first certificate a function sees (issue 39), so a password login or a portal look-up does not
 * load them at its cold start. What certificate logins and the integrator API call.
 */
export async function certificadoDoChamador(...args: Parameters<typeof verificacao.certificadoDoChamador>): ReturnType<typeof verificacao.certificadoDoChamador> {
  const { certificadoDoChamador: verificar } = await import('./caller-certificate');
  return verificar(...args);
}
