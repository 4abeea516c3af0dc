import { ConfirmDialog } from 'primereact/confirmdialog';

/**
 * The portal's Sim/Não confirmation of an action on one row (remove, unlock…): open while `target`
 * is set, `onConfirm(target)` on Sim, `onClose` on Não or Esc. `danger` paints Sim as destructive.
 */
export function ConfirmSimNao<T>({
  target,
  message,
  onConfirm,
  onClose,
  danger = false,
}: {
  target: T | null;
  message: string;
  onConfirm: (target: T) => void;
  onClose: () => void;
  danger?: boolean;
}) {
  return (
    <ConfirmDialog
      visible={target !== null}
      onHide={onClose}
      header="Confirmação"
      message={message}
      icon="pi pi-exclamation-triangle"
      acceptLabel="Sim"
      rejectLabel="Não"
      {...(danger ? { acceptClassName: 'p-button-danger' } : {})}
      accept={() => {
        if (target !== null) onConfirm(target);
      }}
      reject={onClose}
    />
  );
}
