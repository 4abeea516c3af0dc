import { MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';

/**
 * The generic success-message page: title and body come as route parameters
 * (/message/:title/:body) or, for long texts, as ?title=&body= (see messagePath()).
 */
export default function MessagePage() {
  const params = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const title = params.title ?? search.get('title') ?? MESSAGES.operacaoRealizada;
  const body = params.body ?? search.get('body') ?? '';
  return (
    <main className="public-page status-page">
      <i className="pi pi-check-circle" aria-hidden="true" />
      <h1>{title}</h1>
      {body && <p>{body}</p>}
      <Button label="Voltar ao início" icon="pi pi-home" onClick={() => navigate('/')} />
    </main>
  );
}
