import { MESSAGES } from '@plac/shared/messages';
import { Link } from 'react-router-dom';

/** Where the guards send a user without the role a page needs. */
export default function NotAuthorizedPage() {
  return (
    <div className="status-page">
      <i className="pi pi-ban" aria-hidden="true" />
      <h1 className="app-page-title">Acesso Negado</h1>
      <p>{MESSAGES.acessoNegado}</p>
      <Link to="/app">Voltar ao início</Link>
    </div>
  );
}
