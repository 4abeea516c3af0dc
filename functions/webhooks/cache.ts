/**
 * Short-lived, in-container memory for the dispatcher's per-delivery reads (docs/webhooks.md
 * "Partition load"). A Lambda container keeps its module state between invocations, so a value read
 * here is shared by every delivery the container sends until it expires: the partition behind it is
 * read at most once per `validadeMs` per container, whatever the delivery rate (containers ÷ validity
 * reads a second), instead of once per delivery.
 *
 * Concurrent misses of one key share the same read (the batch processor sends a batch's records at
 * once), and a failed read is not kept (the next caller reads again). The entries are bounded: past
 * `maximo` keys the oldest one is dropped, so a container that sees many clients keeps bounded memory.
 */
export class CacheComValidade<V> {
  private readonly itens = new Map<string, { valor: Promise<V>; expiraEm: number }>();

  constructor(
    readonly validadeMs: number,
    private readonly agora: () => number = Date.now,
    private readonly maximo = 5_000,
  ) {}

  /** The value of `chave`: the one kept while it is younger than the validity, else `ler()`'s (kept). */
  obter(chave: string, ler: () => Promise<V>): Promise<V> {
    const agora = this.agora();
    const item = this.itens.get(chave);
    if (item && item.expiraEm > agora) return item.valor;
    this.itens.delete(chave);
    const valor = ler();
    this.itens.set(chave, { valor, expiraEm: agora + this.validadeMs });
    // A failed read is forgotten (only if it is still the kept one): the next caller reads again.
    valor.catch(() => {
      if (this.itens.get(chave)?.valor === valor) this.itens.delete(chave);
    });
    if (this.itens.size > this.maximo) this.itens.delete(this.itens.keys().next().value!);
    return valor;
  }

  /** Forgets one key (this container changed it) or every key. */
  invalidar(chave?: string): void {
    if (chave === undefined) this.itens.clear();
    else this.itens.delete(chave);
  }
}

/**
 * At most once per `intervaloMs` per key in this container: `passar(chave)` is true for the first
 * call and then false until the interval has passed since the last call that was let through.
 * Bounded like the cache (past `maximo` keys the oldest is forgotten, which only lets one through early).
 */
export class Intervalo {
  private readonly ultimos = new Map<string, number>();

  constructor(
    readonly intervaloMs: number,
    private readonly agora: () => number = Date.now,
    private readonly maximo = 5_000,
  ) {}

  passar(chave: string, agora: number = this.agora()): boolean {
    const ultimo = this.ultimos.get(chave);
    if (ultimo !== undefined && agora - ultimo < this.intervaloMs) return false;
    this.ultimos.delete(chave);
    this.ultimos.set(chave, agora);
    if (this.ultimos.size > this.maximo) this.ultimos.delete(this.ultimos.keys().next().value!);
    return true;
  }

  /** Lets the next call for `chave` through (the write it allowed did not happen). */
  esquecer(chave: string): void {
    this.ultimos.delete(chave);
  }
}
