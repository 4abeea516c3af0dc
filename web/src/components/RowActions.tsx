import { Button } from 'primereact/button';

/** One action of a list row: an icon button with its tooltip; its accessible name the label unless said. */
export interface RowAction {
  icon: string;
  /** The tooltip, and the accessible name unless `ariaLabel` says more ('Editar Banco Alfa'). */
  label: string;
  ariaLabel?: string;
  onClick: () => void;
  severity?: 'danger' | 'success';
  loading?: boolean;
  /** false: not offered on this row (the role or the row's state does not allow it). */
  show?: boolean;
}

/**
 * The actions column of a list row (Editar, Remover, Liberar…): round text buttons with a tooltip above.
 * `bare`: the buttons alone, for a group of actions that stands inside another row's actions.
 */
export function RowActions({ actions, bare = false }: { actions: readonly RowAction[]; bare?: boolean }) {
  const buttons = actions
    .filter((a) => a.show !== false)
    .map((a) => (
      <Button
        key={a.label}
        type="button"
        icon={a.icon}
        rounded
        text
        {...(a.severity ? { severity: a.severity } : {})}
        aria-label={a.ariaLabel ?? a.label}
        tooltip={a.label}
        tooltipOptions={{ position: 'top' }}
        {...(a.loading !== undefined ? { loading: a.loading } : {})}
        onClick={a.onClick}
      />
    ));
  return bare ? <>{buttons}</> : <div className="page-row-actions">{buttons}</div>;
}
