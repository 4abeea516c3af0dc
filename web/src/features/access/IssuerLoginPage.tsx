import { routePath } from '@plac/shared/access';
import { auth } from '@plac/shared/contracts';
import { useMutation } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Link } from 'react-router-dom';
import { callApi, type ApiError } from '../../lib/api';
import { certificateLogin, useFinishLogin, type LoginResult } from './loginFlow';

/**
 * The issuer login '/emissor/login': certificate only, on the mTLS domain; on success
 * the issuer goes to the acceptance terms (emissor-termo).
 */
export default function IssuerLoginPage() {
  const finish = useFinishLogin(routePath('emissor-termo'));
  const entrar = useMutation<LoginResult | null, ApiError>({
    mutationFn: () => certificateLogin(() => callApi(auth.loginCertificadoEmissor, { notify: false })),
    onSuccess: (result) => {
      // null: the silent 410 (the errors are cleared, nothing is shown).
      if (result) finish(result);
    },
  });

  return (
    <main className="public-page issuer-login">
      <section className="login-card" aria-labelledby="issuer-login-title">
        <h1 id="issuer-login-title">Acesso do emissor</h1>
        <p>
          Emissores de NF-e entram com o certificado digital ICP-Brasil (e-CNPJ) da empresa para registrar o
          consentimento de compartilhamento dos dados das suas faturas.
        </p>
        <p className="login-hint">Ao continuar, o navegador pedirá que você escolha o certificado.</p>
        <Button
          type="button"
          label="Entrar com certificado digital"
          icon="pi pi-id-card"
          loading={entrar.isPending}
          onClick={() => entrar.mutate()}
        />
        <p>
          <Link to="/">Voltar ao início</Link>
        </p>
      </section>
    </main>
  );
}
