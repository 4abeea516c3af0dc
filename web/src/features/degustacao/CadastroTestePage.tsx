import { Button } from 'primereact/button';
import { useNavigate } from 'react-router-dom';
import { AUTORIZACAO_PATH } from './model';

/** ours: the product's text says only that an e-mail will confirm access. */
export const CADASTRO_TESTE_TITULO = 'Cadastro para testes realizado';
export const CADASTRO_TESTE_TEXTO =
  'Seu cadastro para a degustação foi recebido. Você receberá um e-mail confirmando o seu acesso, com o token para a autorização de testes.';

/** 'cadastro-cliente-degustacao' (/degustacao/cadastroTeste): the end of the trial registration. */
export default function CadastroTestePage() {
  const navigate = useNavigate();
  return (
    <section className="status-page" aria-labelledby="cadastro-teste-title">
      <i className="pi pi-check-circle" aria-hidden="true" />
      <h1 id="cadastro-teste-title">{CADASTRO_TESTE_TITULO}</h1>
      <p>{CADASTRO_TESTE_TEXTO}</p>
      <Button label="Informar o token" icon="pi pi-key" onClick={() => navigate(AUTORIZACAO_PATH)} />
    </section>
  );
}
