import { ClienteFormView } from './ClienteFormPage';

/** cliente/edit/:id (role cliente): the client user's own company. */
export default function DadosClienteEditPage() {
  return <ClienteFormView mode="cliente" />;
}
