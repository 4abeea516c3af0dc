import { randomBytes } from 'node:crypto';
import {
  DescribeSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
  UpdateSecretVersionStageCommand,
} from '../platform/aws-direto/secrets-manager';
import { logger } from '../platform/observability';

/**
 * Rotation of the session signing key (the data stack's SessionSigningKey, every 30 days): Secrets
 * Manager calls this function four times per rotation with the same ClientRequestToken, which is the
 * new version's id (and so the `kid` of the tokens it will sign, functions/platform/auth/signing-keys.ts).
 *   createSecret  a new random key as AWSPENDING (again: nothing, the version exists)
 *   setSecret     nothing: no other system holds the key
 *   testSecret    the pending key is there and long enough
 *   finishSecret  AWSCURRENT moves to the new version; Secrets Manager gives the old one AWSPREVIOUS,
 *                 which verifiers still accept, so tokens issued before the rotation live out their 15 minutes
 * Every step may be retried (Secrets Manager retries a failed step), and each is idempotent.
 */

export type RotationStep = 'createSecret' | 'setSecret' | 'testSecret' | 'finishSecret';

export interface RotationEvent {
  readonly SecretId: string;
  readonly ClientRequestToken: string;
  readonly Step: RotationStep;
}

/** HS256 wants at least 256 bits; 48 random bytes give 384. */
export const KEY_BYTES = 48;
const MIN_KEY_CHARS = 43;

type Client = Pick<SecretsManagerClient, 'send'>;

let sharedClient: SecretsManagerClient | undefined;

export const handler = async (event: RotationEvent): Promise<void> => {
  sharedClient ??= new SecretsManagerClient();
  await rotate(sharedClient, event);
};

export async function rotate(client: Client, event: RotationEvent): Promise<void> {
  const { SecretId, ClientRequestToken: token, Step } = event;
  if (!SecretId || !token || !['createSecret', 'setSecret', 'testSecret', 'finishSecret'].includes(Step)) {
    throw new Error(`not a rotation event: step ${String(Step)}`);
  }
  const described = await client.send(new DescribeSecretCommand({ SecretId }));
  if (described.RotationEnabled === false) throw new Error('rotation is not enabled on the secret');
  const stages = described.VersionIdsToStages ?? {};
  const ofToken = stages[token];
  if (!ofToken) throw new Error('the rotation token is not a version of the secret');
  if (ofToken.includes('AWSCURRENT')) {
    // A finished rotation called again: nothing left to do.
    logger.info('session key version already current', { step: Step });
    return;
  }
  if (!ofToken.includes('AWSPENDING')) throw new Error('the rotation token is not the pending version');

  switch (Step) {
    case 'createSecret': {
      try {
        await client.send(new GetSecretValueCommand({ SecretId, VersionId: token, VersionStage: 'AWSPENDING' }));
        return;
      } catch (error) {
        if ((error as { name?: string }).name !== 'ResourceNotFoundException') throw error;
      }
      await client.send(
        new PutSecretValueCommand({ SecretId, ClientRequestToken: token, SecretString: randomBytes(KEY_BYTES).toString('base64url'), VersionStages: ['AWSPENDING'] }),
      );
      logger.info('session key created', { step: Step });
      return;
    }
    case 'setSecret':
      return;
    case 'testSecret': {
      const pending = await client.send(new GetSecretValueCommand({ SecretId, VersionId: token, VersionStage: 'AWSPENDING' }));
      if (!pending.SecretString || pending.SecretString.length < MIN_KEY_CHARS) throw new Error('the pending session key is too short');
      return;
    }
    case 'finishSecret': {
      const current = Object.entries(stages).find(([, s]) => s.includes('AWSCURRENT'))?.[0];
      await client.send(
        new UpdateSecretVersionStageCommand({ SecretId, VersionStage: 'AWSCURRENT', MoveToVersionId: token, ...(current ? { RemoveFromVersionId: current } : {}) }),
      );
      logger.info('session key rotated', { step: Step });
      return;
    }
  }
}
