import { Button } from 'primereact/button';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

/** A button's label and icon. */
export interface ActionLook {
  label: string;
  icon: string;
}

export const SALVAR: ActionLook = { label: 'Salvar', icon: 'pi pi-check' };
export const CADASTRAR: ActionLook = { label: 'Cadastrar', icon: 'pi pi-check' };
export const VOLTAR: ActionLook = { label: 'Voltar', icon: 'pi pi-arrow-left' };
export const CANCELAR: ActionLook = { label: 'Cancelar', icon: 'pi pi-times' };
export const LIMPAR: ActionLook = { label: 'Limpar', icon: 'pi pi-eraser' };

interface FormActionsProps {
  /** The submit button ('Salvar' unless said); null: the user may not submit (no button). */
  submit?: ActionLook | null;
  /** The submission under way: the submit button spins. */
  loading: boolean;
  /** The secondary, outlined button beside it ('Voltar' unless said) and what it does; none without `onBack`. */
  back?: ActionLook;
  onBack?: () => void;
  /** Further buttons, after these two. */
  children?: ReactNode;
}

/** The actions row under a form: its submit button, then the outlined way back (or out). */
export function FormActions({ submit = SALVAR, loading, back = VOLTAR, onBack, children }: FormActionsProps) {
  return (
    <div className="page-actions">
      {submit && <Button type="submit" label={submit.label} icon={submit.icon} loading={loading} />}
      {onBack && <Button type="button" label={back.label} icon={back.icon} severity="secondary" outlined onClick={onBack} />}
      {children}
    </div>
  );
}

/** A way to another page beside a form's submit button: a link, dressed as the secondary outlined button. */
export function LinkAction({ to, icon, label }: { to: string; icon: string; label: string }) {
  return (
    <Link to={to} className="p-button p-button-secondary p-button-outlined">
      <i className={icon} aria-hidden="true" />
      &nbsp;{label}
    </Link>
  );
}
