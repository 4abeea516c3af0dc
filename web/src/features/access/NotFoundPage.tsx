import { Link } from 'react-router-dom';

/** Any unknown path (a 404 page). '/' sends a signed-in user on to the dashboard. */
export default function NotFoundPage() {
  return (
    <div className="public-page status-page">
      <i className="pi pi-map" aria-hidden="true" />
      <h1>Página não encontrada</h1>
      <p>O endereço acessado não existe ou não está mais disponível.</p>
      <Link to="/">Voltar ao início</Link>
    </div>
  );
}
