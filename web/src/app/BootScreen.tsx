/** Shown while the first chunks load; styled by index.html so it needs no theme. */
export function BootScreen() {
  return <div className="boot">Carregando…</div>;
}
