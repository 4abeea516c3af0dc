import { chamarAws, type Chamada, type Metadados, type Servico } from './chamada';

/**
 * A command as the SDK's clients take it (`client.send(new XCommand(input))`, the same names and
 * inputs), for the services chamada.ts calls. The input and output types are the SDK's own, imported
 * as types only: they cost the bundles nothing. Timestamps in an answer stay as the service sent them
 * (epoch seconds): no function reads one.
 */
export interface Comando<E, S> {
  readonly operacao: string;
  /** REST-JSON services (SES v2): the operation's method and path. */
  readonly rest?: Chamada['rest'];
  readonly input: E;
  /** The output's type, for send's inference only: never set. */
  readonly __saida?: S;
}

/** The class of one operation's command: `class XCommand extends comando<XInput, XOutput>('X') {}`. */
export function comando<E, S>(operacao: string, rest?: Chamada['rest']) {
  return class implements Comando<E, S> {
    readonly operacao = operacao;
    readonly rest = rest;
    declare readonly __saida?: S;
    constructor(readonly input: E) {}
  };
}

export interface OpcoesDeEnvio {
  abortSignal?: AbortSignal;
}

/** A service's client: its send signs and sends one command (chamada.ts). */
export class ClienteAws {
  constructor(private readonly servico: Servico) {}

  send<E, S>(command: Comando<E, S>, opcoes: OpcoesDeEnvio = {}): Promise<Omit<S, '$metadata'> & { $metadata: Metadados }> {
    return chamarAws<Omit<S, '$metadata'>>({ servico: this.servico, operacao: command.operacao, ...(command.rest ? { rest: command.rest } : {}), corpo: command.input, ...(opcoes.abortSignal ? { sinal: opcoes.abortSignal } : {}) });
  }
}
