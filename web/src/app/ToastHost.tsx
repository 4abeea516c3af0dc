import { Toast } from 'primereact/toast';
import { useEffect, useRef } from 'react';
import { subscribeToasts, TOAST_LIFE_MS } from '../lib/toast';

/** The one place toasts appear: shows every message of the toast bus for 8 s (spec 1 section 9). */
export function ToastHost() {
  const toastRef = useRef<Toast>(null);
  useEffect(
    () =>
      subscribeToasts((message) => {
        toastRef.current?.show({ ...message, life: TOAST_LIFE_MS });
      }),
    [],
  );
  return <Toast ref={toastRef} position="top-right" />;
}
