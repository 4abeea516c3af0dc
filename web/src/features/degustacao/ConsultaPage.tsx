import { ListTable } from '../../components/ListPage';
import { degustacao, type ResponseOf } from '@plac/shared/contracts';
import { message } from '@plac/shared/messages';
import { useQuery } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { InputText } from 'primereact/inputtext';
import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { FieldError } from '../../components/FieldError';
import { JsonTree } from '../../components/JsonTree';
import { RequiredMark } from '../../components/RequiredMark';
import { formatDateTime, formatMoney } from '../../lib/format';
import { toast } from '../../lib/toast';
import { errorId } from '../../components/FormField';
import { trialCall } from './api';
import { AUTORIZACAO_PATH } from './model';
import { clearTrialSession, useTrialSession } from './session';

/**
 * 'consulta-degustacao' (/degustacao/consulta): the available access keys and the trial look-up of
 * one of them (not billed, limited per trial client), shown as a JSON tree. Without a trial session —
 * never authorised, expired, or refused by the API (401 ends it) — the page goes to autorizacao; 'Sair'
 * ends it and goes there too.
 */

const CHAVE_DIGITOS = 44;
type Chave = ResponseOf<typeof degustacao.chavesDegustacao>[number];
type Fatura = ResponseOf<typeof degustacao.consultarFaturaDegustacao>;

/** The key field's own checks, in the catalogue's words; null when it may be sent. */
export function validarChave(chave: string): string | null {
  if (chave.trim() === '') return message('degustacaoChaveObrigatoria');
  if (!/^\d{44}$/.test(chave)) return message('degustacaoChaveInvalida');
  return null;
}

export default function ConsultaPage() {
  const navigate = useNavigate();
  const session = useTrialSession();
  const [chave, setChave] = useState('');
  const [erro, setErro] = useState<string | null>(null);
  const [resultado, setResultado] = useState<Fatura | null>(null);
  const [consultando, setConsultando] = useState(false);
  const chaves = useQuery({
    queryKey: ['degustacao.chaves', session?.token],
    queryFn: ({ signal }) => trialCall(degustacao.chavesDegustacao, {}, { signal }),
    enabled: session !== null,
    retry: false,
  });

  if (!session) return <Navigate to={AUTORIZACAO_PATH} replace />;

  async function consultar(valor: string) {
    const problema = validarChave(valor);
    setErro(problema);
    if (problema) {
      toast.error(problema);
      return;
    }
    setConsultando(true);
    try {
      setResultado(await trialCall(degustacao.consultarFaturaDegustacao, { chave: valor }));
    } catch {
      // The toast shows the server's message; a 401 has ended the trial session (back to autorizacao).
      setResultado(null);
    } finally {
      setConsultando(false);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void consultar(chave);
  }

  function sair() {
    clearTrialSession();
    navigate(AUTORIZACAO_PATH, { replace: true });
  }

  return (
    <section aria-labelledby="consulta-degustacao-title">
      <h1 id="consulta-degustacao-title" className="app-page-title">
        Consulta de Fatura para Testes
      </h1>
      <div className="page-panel degustacao-sessao">
        <span>
          {session.razao_social} · {session.email} · autorização válida até {formatDateTime(session.expira_em)}
        </span>
        <Button type="button" label="Sair" icon="pi pi-sign-out" severity="secondary" outlined onClick={sair} />
      </div>

      <form className="page-panel" onSubmit={onSubmit} noValidate aria-label="Consulta de Fatura para Testes">
        <div className="page-grid">
          <div className="page-field page-field-wide">
            <div className="clientes-label">
              <label htmlFor="chave">Chave de Acesso</label>
              <RequiredMark />
            </div>
            <InputText
              id="chave"
              inputMode="numeric"
              maxLength={CHAVE_DIGITOS}
              autoComplete="off"
              value={chave}
              onChange={(e) => {
                setErro(null);
                setChave(e.target.value.replace(/\D/g, '').slice(0, CHAVE_DIGITOS));
              }}
              invalid={erro !== null}
              aria-required
              aria-describedby={errorId('chave')}
            />
            <FieldError error={null} id={errorId('chave')} field="chave" messages={erro ? [erro] : []} />
          </div>
        </div>
        <div className="page-actions">
          <Button type="submit" label="Consultar" icon="pi pi-search" loading={consultando} />
        </div>
      </form>

      <section className="page-panel degustacao-chaves" aria-labelledby="chaves-title">
        <h2 id="chaves-title">Chaves de acesso disponíveis para testes</h2>
        <ListTable
          label="Chaves de acesso disponíveis para testes"
          rows={chaves.data}
          dataKey="chave"
          query={chaves}
          paging={{ kind: 'none' }}
          emptyText="Nenhuma chave disponível no momento."
        >
          <Column
            header="Chave de Acesso"
            body={(c: Chave) => (
              <Button
                type="button"
                link
                className="degustacao-chave"
                label={c.chave}
                aria-label={`Consultar a chave ${c.chave}`}
                onClick={() => {
                  setChave(c.chave);
                  void consultar(c.chave);
                }}
              />
            )}
          />
          <Column field="emitente" header="Emitente" />
          <Column header="Emissão" body={(c: Chave) => formatDateTime(c.emissao)} />
          <Column header="Valor" body={(c: Chave) => formatMoney(c.valorNota)} />
        </ListTable>
      </section>

      {resultado && (
        <section className="page-panel" aria-labelledby="resultado-title">
          <h2 id="resultado-title">Resultado da consulta</h2>
          <JsonTree rootKey="fatura" value={resultado} label="Resultado da consulta" open={['fatura.emitente', 'fatura.destinatario', 'fatura.fatura', 'fatura.duplicatas']} />
        </section>
      )}
    </section>
  );
}
