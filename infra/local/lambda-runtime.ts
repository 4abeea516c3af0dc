/**
 * Runs our Lambda handlers in this process the way the Lambda runtime would: the module is loaded
 * once (a warm container), each invocation gets a Context with a deadline, and a handler that runs
 * past its function's timeout fails the invocation as Lambda would.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Context } from 'aws-lambda';
import { runAsService } from '../../functions/platform/observability';
import { serviceName, type FunctionSpec } from '../lib/topology';

const functionsDir = fileURLToPath(new URL('../../functions/', import.meta.url));

export type Invoke = (event: unknown) => Promise<unknown>;

type Handler = (event: unknown, context: Context) => Promise<unknown>;

const loaded = new Map<string, Promise<Handler>>();

export class LambdaTimeoutError extends Error {
  override name = 'Lambda.Timeout';
}

export function localFunction(spec: FunctionSpec): Invoke {
  return async (event) => {
    let module = loaded.get(spec.id);
    if (!module) {
      module = import(functionsDir + spec.entry).then((m: { handler?: Handler }) => {
        if (typeof m.handler !== 'function') throw new Error(`${spec.entry} does not export a handler`);
        return m.handler;
      });
      loaded.set(spec.id, module);
    }
    const handler = await module;
    const deadline = Date.now() + spec.timeoutSeconds * 1000;
    const context = lambdaContext(spec, deadline);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new LambdaTimeoutError(`${spec.id} timed out after ${spec.timeoutSeconds}s`)), deadline - Date.now());
    });
    try {
      // All functions share this process: each invocation logs under its own function's service name.
      return await Promise.race([runAsService(serviceName(spec), () => handler(event, context)), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
}

function lambdaContext(spec: FunctionSpec, deadline: number): Context {
  const name = `plac-local-${spec.id}`;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: localFunctionArn(spec.id),
    memoryLimitInMB: String(spec.memoryMb),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export function localFunctionArn(id: string): string {
  return `arn:aws:lambda:us-east-1:000000000000:function:plac-local-${id}`;
}
