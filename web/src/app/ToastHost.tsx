import { Toast } from 'primereact/toast';
import { useEffect, useRef } from 'react';
import { subscribeToastClear, subscribeToasts, TOAST_LIFE_MS } from '../lib/toast';

/** The one place toasts appear: shows every message of the toast bus for 8 s, until cleared. */
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
  return <Toast ref={toastRef} position="top-right" />;
}
