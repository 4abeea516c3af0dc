import '../../components/page-layout.css';
import './degustacao.css';
import { Outlet } from 'react-router-dom';

/** The trial layout: a simple header, no side menu; the trial pages render below it. */
export default function DegustacaoLayout() {
  return (
    <div className="degustacao-layout">
      <header className="degustacao-header">
        <i className="pi pi-gift" aria-hidden="true" />
        <span>PLAC Fat-e — Degustação</span>
      </header>
      <main className="public-page degustacao-main">
        <Outlet />
      </main>
    </div>
  );
}
