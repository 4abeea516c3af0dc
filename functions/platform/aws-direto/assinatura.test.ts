import { SignatureV4 } from '@smithy/signature-v4';
import { describe, expect, it } from 'vitest';
import { assinar } from './assinatura';
import { Sha256 } from './servidor.test-util';

/**
 * Our SigV4 signature against the SDK's signer (@smithy/signature-v4, what every SDK client signs
 * with): the same request at the same moment must carry the same Authorization header.
 */
const agora = new Date('2026-12-05T03:04:05.678Z');

async function doSdk(p: { host: string; caminho: string; headers: Record<string, string>; corpo: string; servico: string; credenciais: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } }) {
  const signer = new SignatureV4({ service: p.servico, region: 'sa-east-1', credentials: p.credenciais, sha256: Sha256, applyChecksum: false });
  const assinado = await signer.sign(
    { method: 'POST', protocol: 'https:', hostname: p.host, path: p.caminho, query: {}, headers: { host: p.host, ...p.headers }, body: p.corpo },
    { signingDate: agora },
  );
  return assinado.headers as Record<string, string>;
}

interface Caso {
  nome: string;
  host: string;
  caminho: string;
  headers: Record<string, string>;
  corpo: string;
  servico: string;
  credenciais: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

describe('SigV4 (assinatura.ts)', () => {
  const casos: Caso[] = [
    {
      nome: 'a DynamoDB call with the function role\'s session token',
      host: 'dynamodb.sa-east-1.amazonaws.com',
      caminho: '/',
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.GetItem' },
      corpo: JSON.stringify({ TableName: 'plac', Key: { pk: { S: '$fate#chave_ção' } } }),
      servico: 'dynamodb',
      credenciais: { accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLE//token' },
    },
    {
      nome: 'an SES v2 REST call without a session token, on a port',
      host: '127.0.0.1:4566',
      caminho: '/v2/email/outbound-emails',
      headers: { 'content-type': 'application/json' },
      corpo: JSON.stringify({ FromEmailAddress: 'PLAC <nao-responda@plac.local>' }),
      servico: 'ses',
      credenciais: { accessKeyId: 'local', secretAccessKey: 'local' },
    },
  ];
  for (const c of casos) {
    it(`signs ${c.nome} as the SDK does`, async () => {
      const nosso = assinar({ metodo: 'POST', host: c.host, caminho: c.caminho, headers: c.headers, corpo: c.corpo, servico: c.servico, regiao: 'sa-east-1', credenciais: c.credenciais, agora }).headers;
      const sdk = await doSdk(c);
      expect(nosso.authorization).toBe(sdk.authorization);
      expect(nosso['x-amz-date']).toBe('20261205T030405Z');
      expect(nosso['x-amz-security-token']).toBe(c.credenciais.sessionToken);
    });
  }

  it('changes the signature with the body, the key or the day', () => {
    const base = { metodo: 'POST', host: 'sqs.sa-east-1.amazonaws.com', caminho: '/', headers: {}, corpo: '{}', servico: 'sqs', regiao: 'sa-east-1', credenciais: { accessKeyId: 'a', secretAccessKey: 'b' }, agora };
    const uma = assinar(base).headers.authorization;
    expect(assinar({ ...base, corpo: '{ }' }).headers.authorization).not.toBe(uma);
    expect(assinar({ ...base, credenciais: { accessKeyId: 'a', secretAccessKey: 'c' } }).headers.authorization).not.toBe(uma);
    expect(assinar({ ...base, agora: new Date('2026-12-06T03:04:05Z') }).headers.authorization).not.toBe(uma);
  });
});
