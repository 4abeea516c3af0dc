import { ClienteFormView } from './ClienteFormPage';

/** cliente/edit/:id (role cliente): the client user's own company (spec 1 section 2). */
export default function DadosClienteEditPage() {
  return <ClienteFormView mode="cliente" />;
}
