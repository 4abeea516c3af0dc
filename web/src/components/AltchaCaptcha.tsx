import './field.css';
import type {} from 'altcha/types/react';
import { cadastro } from '@plac/shared/contracts';
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';

/**
 * The registration's captcha: the ALTCHA proof-of-work widget (a web component), imported lazily so
 * that only this page loads it. It fetches its challenge from GET /api/v1/captcha and, once verified,
 * hands over the base64 payload that the registration sends as `recaptcha`.
 */

export const CAPTCHA_URL = cadastro.captchaChallenge.path;

export interface AltchaCaptchaHandle {
  /** A payload is good for one submission: after a refused one the widget starts over. */
  reset: () => void;
}

interface AltchaCaptchaProps {
  id: string;
  labelId: string;
  describedBy?: string;
  /** The payload once verified; null when not (yet) or no longer verified. */
  onChange: (payload: string | null) => void;
}

interface WidgetElement extends HTMLElement {
  reset?: () => void;
}

let loading: Promise<void> | null = null;

/** The widget and its pt-BR texts, once per page load. */
function loadAltcha(): Promise<void> {
  loading ??= import('./altchaLoader').then(
    () => undefined,
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

export const AltchaCaptcha = forwardRef<AltchaCaptchaHandle, AltchaCaptchaProps>(function AltchaCaptcha(
  { id, labelId, describedBy, onChange },
  handle,
) {
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const widget = useRef<WidgetElement>(null);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });

  useEffect(() => {
    let alive = true;
    loadAltcha().then(
      () => alive && setState('ready'),
      () => alive && setState('failed'),
    );
    return () => {
      alive = false;
    };
  }, []);

  useEffect(() => {
    const element = widget.current;
    if (state !== 'ready' || !element) return;
    const onVerified = (event: Event) => {
      const payload = (event as CustomEvent<{ payload?: string }>).detail?.payload;
      onChangeRef.current(typeof payload === 'string' && payload !== '' ? payload : null);
    };
    const onState = (event: Event) => {
      if ((event as CustomEvent<{ state?: string }>).detail?.state !== 'verified') onChangeRef.current(null);
    };
    const onExpired = () => onChangeRef.current(null);
    element.addEventListener('verified', onVerified);
    element.addEventListener('statechange', onState);
    element.addEventListener('expired', onExpired);
    return () => {
      element.removeEventListener('verified', onVerified);
      element.removeEventListener('statechange', onState);
      element.removeEventListener('expired', onExpired);
    };
  }, [state]);

  useImperativeHandle(handle, () => ({
    reset: () => {
      widget.current?.reset?.();
      onChangeRef.current(null);
    },
  }));

  if (state === 'loading') return <p role="status">Carregando...</p>;
  if (state === 'failed') {
    return (
      <p className="clientes-inline-error" role="alert">
        Não foi possível carregar o captcha. Recarregue a página.
      </p>
    );
  }
  return (
    <altcha-widget
      ref={widget}
      id={id}
      role="group"
      aria-labelledby={labelId}
      aria-describedby={describedBy}
      challenge={CAPTCHA_URL}
      language="pt-br"
      name="recaptcha"
    />
  );
});
