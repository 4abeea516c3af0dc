import { Toast } from 'primereact/toast';
import { useEffect, useRef } from 'react';
import { subscribeToastClear, subscribeToasts, TOAST_LIFE_MS } from '../lib/toast';

/**
 * The one place toasts appear: shows every message of the toast bus for 8 s, until cleared.
 *
 * Top right, but below the top bar: a toast over the bar would cover "Sair" and the profile, and
 * PrimeReact keeps a toast while the pointer rests on it, so a user aiming at "Sair" would hold it there.
 * (Through the pass-through: the root's own inline top of 20px would win over the `style` prop.)
 */
const BELOW_TOPBAR = { top: 'calc(var(--app-topbar-height) + 0.75rem)' } as const;

export function ToastHost() {
  const toastRef = useRef<Toast>(null);
  useEffect(() => {
    const stopShowing = subscribeToasts((message) => {
      toastRef.current?.show({ ...message, life: TOAST_LIFE_MS });
    });
    const stopClearing = subscribeToastClear(() => toastRef.current?.clear());
    return () => {
      stopShowing();
      stopClearing();
    };
  }, []);
  return <Toast ref={toastRef} position="top-right" pt={{ root: { style: BELOW_TOPBAR } }} />;
}
