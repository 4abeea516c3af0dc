import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chamarAws, ErroAws } from './chamada';
import { GetItemCommand } from './dynamodb';
import { SendEmailCommand, SESv2Client } from './sesv2';
import { SecretsManagerClient, GetSecretValueCommand } from './secrets-manager';
import { servidorDeTeste } from './servidor.test-util';

/**
 * The transport against a local HTTP server answering as an AWS JSON service: what it sends (target,
 * content type, signature, the endpoint variable), how it reads an error, and the SDK's retries.
 */
let servidor: Awaited<ReturnType<typeof servidorDeTeste>>;
let url = '';
let pedidos: Awaited<ReturnType<typeof servidorDeTeste>>['pedidos'];
/** The answers to give, in order: status, body (an object, sent as JSON), headers. */
const respostas = (...r: { status: number; corpo?: unknown; headers?: Record<string, string> }[]) =>
  servidor.respostas.push(...r.map((x) => ({ ...x, corpo: x.corpo === undefined ? '' : JSON.stringify(x.corpo) })));

beforeAll(async () => {
  servidor = await servidorDeTeste({ status: 200, corpo: '{}', headers: { 'content-type': 'application/x-amz-json-1.0' } });
  ({ url, pedidos } = servidor);
});
afterAll(() => servidor.fechar());

const guardado = { ...process.env };
beforeEach(() => {
  servidor.limpar();
  Object.assign(process.env, { AWS_REGION: 'sa-east-1', AWS_ACCESS_KEY_ID: 'AKIDTESTE', AWS_SECRET_ACCESS_KEY: 'segredo', AWS_SESSION_TOKEN: 'sessao', AWS_ENDPOINT_URL_DYNAMODB: url, AWS_ENDPOINT_URL_SECRETS_MANAGER: url, AWS_ENDPOINT_URL_SESV2: `${url}/ses` });
  delete process.env.AWS_MAX_ATTEMPTS;
});
afterEach(() => {
  process.env = { ...guardado };
});

const getItem = () => new GetItemCommand({ TableName: 'plac', Key: { pk: { S: 'a' }, sk: { S: 'b' } } });

describe('an AWS JSON call (chamada.ts)', () => {
  it('posts the input to the service variable\'s endpoint, signed, with the target and content type of its protocol', async () => {
    respostas({ status: 200, corpo: { Item: { pk: { S: 'a' } } } });
    const { Item, $metadata } = await chamarAws<{ Item: unknown }>({ servico: { assinatura: 'dynamodb', host: 'dynamodb', variavel: 'DYNAMODB', json: { versao: '1.0', alvo: 'DynamoDB_20120810' } }, operacao: 'GetItem', corpo: getItem().input });
    expect(Item).toEqual({ pk: { S: 'a' } });
    expect($metadata).toEqual({ httpStatusCode: 200, requestId: 'req-1', attempts: 1 });
    const [p] = pedidos;
    expect(p!.metodo).toBe('POST');
    expect(p!.url).toBe('/');
    expect(p!.headers['x-amz-target']).toBe('DynamoDB_20120810.GetItem');
    expect(p!.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(p!.headers['x-amz-security-token']).toBe('sessao');
    expect(p!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTESTE\/\d{8}\/sa-east-1\/dynamodb\/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-security-token;x-amz-target, Signature=[0-9a-f]{64}$/);
    expect(JSON.parse(p!.corpo)).toEqual(getItem().input);
  });

  it('speaks JSON 1.1 to Secrets Manager and REST-JSON to SES v2, on their own variables', async () => {
    respostas({ status: 200, corpo: { SecretString: 's', VersionId: 'v1' } }, { status: 200, corpo: { MessageId: 'm-1' } });
    expect(await new SecretsManagerClient().send(new GetSecretValueCommand({ SecretId: 'arn:x' }))).toMatchObject({ SecretString: 's', VersionId: 'v1' });
    expect(await new SESv2Client().send(new SendEmailCommand({ FromEmailAddress: 'a@b.c', Destination: { ToAddresses: ['d@e.f'] }, Content: { Simple: { Subject: { Data: 'x' }, Body: { Text: { Data: 'y' } } } } }))).toMatchObject({ MessageId: 'm-1' });
    expect(pedidos[0]!.headers['x-amz-target']).toBe('secretsmanager.GetSecretValue');
    expect(pedidos[0]!.headers['content-type']).toBe('application/x-amz-json-1.1');
    expect(pedidos[1]!.url).toBe('/ses/v2/email/outbound-emails');
    expect(pedidos[1]!.headers['x-amz-target']).toBeUndefined();
    expect(pedidos[1]!.headers.authorization).toContain('/sa-east-1/ses/aws4_request');
  });

  it('throws an error named for the code, with the answer\'s fields, and does not retry a client error', async () => {
    respostas({ status: 400, corpo: { __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException', Message: 'Transaction cancelled', CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }] } });
    const erro = (await chamarAws({ servico: { assinatura: 'dynamodb', host: 'dynamodb', variavel: 'DYNAMODB', json: { versao: '1.0', alvo: 'DynamoDB_20120810' } }, operacao: 'TransactWriteItems', corpo: {} }).catch((e: unknown) => e)) as ErroAws;
    expect(erro).toBeInstanceOf(ErroAws);
    expect(erro.name).toBe('TransactionCanceledException');
    expect(erro.message).toBe('Transaction cancelled');
    expect(erro.CancellationReasons).toEqual([{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }]);
    expect(erro.$fault).toBe('client');
    expect(erro.$metadata).toEqual({ httpStatusCode: 400, requestId: 'req-1', attempts: 1 });
    expect(pedidos).toHaveLength(1);
  });

  it('reads a REST-JSON error\'s code from its header', async () => {
    respostas({ status: 404, corpo: { message: 'no such thing' }, headers: { 'x-amzn-errortype': 'NotFoundException:http://internal.amazon.com/coral/' } });
    const erro = (await new SESv2Client().send(new SendEmailCommand({ Content: {} })).catch((e: unknown) => e)) as ErroAws;
    expect(erro.name).toBe('NotFoundException');
    expect(erro.message).toBe('no such thing');
  });

  it('retries a throttled call and a server error, and answers the try that worked', async () => {
    respostas(
      { status: 400, corpo: { __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException', message: 'slow down' } },
      { status: 503, corpo: { __type: 'ServiceUnavailable' } },
      { status: 200, corpo: { Item: { pk: { S: 'a' } } } },
    );
    const r = await new SecretsManagerClient().send(new GetSecretValueCommand({ SecretId: 'x' }));
    expect(r.$metadata.attempts).toBe(3);
    expect(pedidos).toHaveLength(3);
  });

  it('gives up after AWS_MAX_ATTEMPTS tries with the last error', async () => {
    process.env.AWS_MAX_ATTEMPTS = '2';
    respostas({ status: 500, corpo: { __type: 'InternalServerError', message: 'a' } }, { status: 500, corpo: { __type: 'InternalServerError', message: 'b' } }, { status: 200 });
    const erro = (await new SecretsManagerClient().send(new GetSecretValueCommand({ SecretId: 'x' })).catch((e: unknown) => e)) as ErroAws;
    expect(erro).toMatchObject({ name: 'InternalServerError', message: 'b', $fault: 'server' });
    expect(erro.$metadata.attempts).toBe(2);
    expect(pedidos).toHaveLength(2);
  });

  it('refuses to call without credentials in the environment', async () => {
    delete process.env.AWS_ACCESS_KEY_ID;
    await expect(new SecretsManagerClient().send(new GetSecretValueCommand({ SecretId: 'x' }))).rejects.toMatchObject({ name: 'CredentialsProviderError' });
    expect(pedidos).toHaveLength(0);
  });
});
