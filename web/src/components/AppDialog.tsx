import { Dialog, type DialogProps } from 'primereact/dialog';
import { useRegisterDialog } from '../lib/dialogs';

/**
 * PrimeReact's Dialog, registered while visible so that a forced logout closes it.
 * Use it for every dialog of the portal.
 */
export function AppDialog(props: DialogProps) {
  const { visible, onHide } = props;
  useRegisterDialog(Boolean(visible), onHide);
  return <Dialog {...props} />;
}
