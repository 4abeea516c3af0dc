import { createHash } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand } from './aws-direto/dynamodb';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN } from '@plac/shared/domain';
import { dynamoDb } from './aws';
import { config } from './env';
import { HttpError, invalid } from './errors';

/**
 * Creates are safe to retry (issue 27 item 2). A POST that creates (a contract answering 201) with an
 * Idempotency-Key header runs once per caller and key: a retry (after a timeout, a lost answer) is
 * answered the first one's stored answer and creates nothing; a retry while the first still runs is
 * 409 `requisicaoEmAndamento`; the same key with another body is 422 `chaveIdempotenciaReutilizada`.
 * A first attempt that fails stores nothing, so its retry runs again. Without the header nothing
 * changes: the routes' own natural keys still refuse a second resource.
 *
 * Powertools' idempotency does this too, but with JMESPath it adds 45 KiB to every HTTP function (each
 * bundles this module); these few conditional writes on the same table (key `id`, TTL `expiration`)
 * use the DynamoDB client every function already carries.
 */

/** How long a key is remembered. */
const VALIDADE_S = 24 * 3600;
/** A record still EM_ANDAMENTO after this is a run that died (the HTTP functions' timeout is 10 s): it may start again. */
const EM_ANDAMENTO_MS = 15_000;

/** The header's key, checked; undefined when absent. */
export function chaveDeIdempotencia(headers: Record<string, string | undefined>): string | undefined {
  const key = headers[IDEMPOTENCY_HEADER];
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw invalid('chaveIdempotenciaInvalida');
  return key;
}

interface Registro {
  id: string;
  situacao: 'EM_ANDAMENTO' | 'CONCLUIDA';
  /** SHA-256 of the request body: a retry must repeat it. */
  corpo: string;
  resposta?: string;
  emAndamentoAte: number;
  expiration: number;
}

/** Runs `criar` once for (escopo, chave); `corpo` is what a retry must repeat. */
export async function umaVez<R>(escopo: string, chave: string, corpo: unknown, criar: () => Promise<R>): Promise<R> {
  const TableName = config.idempotencyTableName;
  const id = `${escopo}#${chave}`;
  const hash = createHash('sha256').update(JSON.stringify(corpo ?? null)).digest('base64url');
  const agora = Date.now();
  const registro: Registro = { id, situacao: 'EM_ANDAMENTO', corpo: hash, emAndamentoAte: agora + EM_ANDAMENTO_MS, expiration: Math.floor(agora / 1000) + VALIDADE_S };
  try {
    // Taken when absent, expired, or left EM_ANDAMENTO by a run that died.
    await dynamoDb().send(
      new PutCommand({
        TableName,
        Item: registro,
        ConditionExpression: 'attribute_not_exists(id) OR expiration < :s OR (situacao = :andamento AND emAndamentoAte < :ms)',
        ExpressionAttributeValues: { ':s': Math.floor(agora / 1000), ':andamento': 'EM_ANDAMENTO', ':ms': agora },
      }),
    );
  } catch (error) {
    if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    const { Item } = await dynamoDb().send(new GetCommand({ TableName, Key: { id }, ConsistentRead: true }));
    const anterior = Item as Registro | undefined;
    if (anterior && anterior.corpo !== hash) throw new HttpError(422, 'chaveIdempotenciaReutilizada');
    if (anterior?.situacao === 'CONCLUIDA' && anterior.resposta) return JSON.parse(anterior.resposta) as R;
    throw new HttpError(409, 'requisicaoEmAndamento');
  }
  let resposta: R;
  try {
    resposta = await criar();
  } catch (error) {
    // Nothing was created: the key is free for the retry.
    await dynamoDb()
      .send(new DeleteCommand({ TableName, Key: { id }, ConditionExpression: 'situacao = :andamento', ExpressionAttributeValues: { ':andamento': 'EM_ANDAMENTO' } }))
      .catch(() => undefined);
    throw error;
  }
  await dynamoDb().send(new PutCommand({ TableName, Item: { ...registro, situacao: 'CONCLUIDA', resposta: JSON.stringify(resposta) } }));
  return resposta;
}
