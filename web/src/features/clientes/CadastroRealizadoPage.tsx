import { Button } from 'primereact/button';
import { useNavigate } from 'react-router-dom';

/** ours: the product's text says only that an e-mail will confirm access. */
export const CADASTRO_REALIZADO_TITULO = 'Cadastro realizado';
export const CADASTRO_REALIZADO_TEXTO =
  'Seu cadastro foi recebido e será analisado pela Sefaz. Você receberá um e-mail confirmando o seu acesso ao PLAC.';

/** 'cadastro-cliente-realizado' (/cliente/cadastroRealizado): the end of the public registration. */
export default function CadastroRealizadoPage() {
  const navigate = useNavigate();
  return (
    <main className="public-page status-page">
      <i className="pi pi-check-circle" aria-hidden="true" />
      <h1>{CADASTRO_REALIZADO_TITULO}</h1>
      <p>{CADASTRO_REALIZADO_TEXTO}</p>
      <Button label="Voltar ao início" icon="pi pi-home" onClick={() => navigate('/')} />
    </main>
  );
}
