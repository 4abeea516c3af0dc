import {
  DescribeSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  UpdateSecretVersionStageCommand,
} from '../platform/aws-direto/secrets-manager';
import { ErroAws } from '../platform/aws-direto/chamada';
import { describe, expect, it } from 'vitest';
import { rotate, type RotationStep } from './rotacao-chave';

/**
 * The session key's rotation (issue 29 item 1) against an in-memory Secrets Manager that keeps
 * versions and stages as the service does (AWSPREVIOUS follows the old AWSCURRENT).
 */
class FakeSecret {
  versions = new Map<string, { value: string | undefined; stages: string[] }>([['v1', { value: 'k'.repeat(64), stages: ['AWSCURRENT'] }]]);
  puts = 0;

  send(command: unknown): Promise<unknown> {
    if (command instanceof DescribeSecretCommand) {
      return Promise.resolve({ RotationEnabled: true, VersionIdsToStages: Object.fromEntries([...this.versions].map(([id, v]) => [id, [...v.stages]])) });
    }
    if (command instanceof GetSecretValueCommand) {
      const { VersionId, VersionStage } = command.input;
      const found = [...this.versions].find(([id, v]) => v.value !== undefined && (!VersionId || id === VersionId) && v.stages.includes(VersionStage ?? 'AWSCURRENT'));
      if (!found) return Promise.reject(new ErroAws('ResourceNotFoundException', 'not found', 'client', { httpStatusCode: 400, attempts: 1 }));
      return Promise.resolve({ VersionId: found[0], SecretString: found[1].value });
    }
    if (command instanceof PutSecretValueCommand) {
      this.puts++;
      const { ClientRequestToken, SecretString, VersionStages } = command.input;
      this.versions.set(ClientRequestToken!, { value: SecretString!, stages: [...VersionStages!] });
      return Promise.resolve({});
    }
    if (command instanceof UpdateSecretVersionStageCommand) {
      const { MoveToVersionId, RemoveFromVersionId } = command.input;
      for (const v of this.versions.values()) v.stages = v.stages.filter((s) => s !== 'AWSPREVIOUS');
      const old = this.versions.get(RemoveFromVersionId!)!;
      old.stages = [...old.stages.filter((s) => s !== 'AWSCURRENT'), 'AWSPREVIOUS'];
      const next = this.versions.get(MoveToVersionId!)!;
      next.stages = [...next.stages.filter((s) => s !== 'AWSPENDING'), 'AWSCURRENT'];
      return Promise.resolve({});
    }
    return Promise.reject(new Error('unexpected command'));
  }

  /** Secrets Manager opens a rotation by giving the new version id the AWSPENDING stage, with no value yet. */
  begin(token: string): void {
    this.versions.set(token, { value: undefined, stages: ['AWSPENDING'] });
  }
}

const steps: RotationStep[] = ['createSecret', 'setSecret', 'testSecret', 'finishSecret'];

async function rotation(secret: FakeSecret, token: string): Promise<void> {
  secret.begin(token);
  for (const Step of steps) await rotate(secret as never, { SecretId: 'plac-session-key', ClientRequestToken: token, Step });
}

describe('session key rotation', () => {
  it('makes a new random key current and keeps the old one as AWSPREVIOUS', async () => {
    const secret = new FakeSecret();
    await rotation(secret, 'v2');
    expect(secret.versions.get('v2')).toMatchObject({ stages: ['AWSCURRENT'] });
    expect(secret.versions.get('v2')!.value).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(secret.versions.get('v1')).toMatchObject({ value: 'k'.repeat(64), stages: ['AWSPREVIOUS'] });
    // The next rotation: v2 becomes the previous one, v1 is no longer accepted.
    await rotation(secret, 'v3');
    expect(secret.versions.get('v3')!.stages).toEqual(['AWSCURRENT']);
    expect(secret.versions.get('v2')!.stages).toEqual(['AWSPREVIOUS']);
    expect(secret.versions.get('v1')!.stages).toEqual([]);
    expect(secret.versions.get('v3')!.value).not.toBe(secret.versions.get('v2')!.value);
  });

  it('is idempotent: a repeated createSecret keeps the key it made, a repeated finishSecret changes nothing', async () => {
    const secret = new FakeSecret();
    await rotation(secret, 'v2');
    const key = secret.versions.get('v2')!.value;
    const puts = secret.puts;
    await rotate(secret as never, { SecretId: 'plac-session-key', ClientRequestToken: 'v2', Step: 'createSecret' });
    await rotate(secret as never, { SecretId: 'plac-session-key', ClientRequestToken: 'v2', Step: 'finishSecret' });
    expect(secret.puts).toBe(puts);
    expect(secret.versions.get('v2')).toMatchObject({ value: key, stages: ['AWSCURRENT'] });
  });

  it('refuses a token that is not a pending version of the secret, and an event that is not a rotation', async () => {
    const secret = new FakeSecret();
    await expect(rotate(secret as never, { SecretId: 'plac-session-key', ClientRequestToken: 'v9', Step: 'createSecret' })).rejects.toThrow(/not a version/);
    await expect(rotate(secret as never, { SecretId: 'plac-session-key', ClientRequestToken: 'v1', Step: 'bogus' as never })).rejects.toThrow(/not a rotation event/);
  });
});
