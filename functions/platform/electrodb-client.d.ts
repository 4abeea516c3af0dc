/**
 * The part of ElectroDB's src/client.js that table.ts uses: its wrapper of a v3 DocumentClient, built
 * with the command classes it should send (an object with lib-dynamodb's names).
 */
declare module 'electrodb/src/client.js' {
  export class DocumentClientV3Wrapper {
    constructor(client: { send(command: unknown, options?: { abortSignal?: AbortSignal }): Promise<unknown> }, lib: Record<string, unknown>);
  }
}
