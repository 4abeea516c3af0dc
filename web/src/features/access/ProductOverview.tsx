import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { API_DOCS_PATH } from '../../app/paths';
import { ISSUER_LOGIN_PATH } from '../../lib/session';

const OPENAPI_PATH = '/api/v1/openapi.json';

interface AudienceCardProps {
  icon: string;
  title: string;
  children: ReactNode;
}

function AudienceCard({ icon, title, children }: AudienceCardProps) {
  return (
    <section className="public-card">
      <h2>
        <i className={`pi ${icon}`} aria-hidden="true" />
        {title}
      </h2>
      {children}
    </section>
  );
}

/** What the platform is and for whom, beside the login (the public root). */
export function ProductIntro() {
  return (
    <div className="public-hero">
      <h1>PLAC Fat-e</h1>
      <p className="lead">
        Plataforma de consulta e cobrança de dados de faturas eletrônicas das Secretarias da Fazenda.
      </p>
      <p>
        A PLAC Fat-e consolida as duplicatas das NF-e, carregadas da distribuição de documentos de cada
        Secretaria da Fazenda, como faturas eletrônicas (Fat-e), e permite que instituições financeiras
        confirmem a existência dos recebíveis antes de antecipá-los. Cada consulta é registrada por cliente,
        serviço, UF de origem e mês; a cobrança mensal segue faixas de uso e tarifas por serviço e é paga
        por Documento de Arrecadação Estadual (DAE).
      </p>
    </div>
  );
}

/** The audiences of the platform, with the integrators' link to the API reference. */
export function ProductAudiences() {
  return (
    <div className="public-cards">
      <AudienceCard icon="pi-building-columns" title="Clientes">
        <p>
          Empresas do segmento financeiro (ESF), instituições do mercado financeiro (IMF) e shoppings
          consultam Fat-e, acompanham consumo e faturas, configuram o monitoramento por webhook e
          autorizam instituições financeiras.
        </p>
      </AudienceCard>
      <AudienceCard icon="pi-verified" title="Emissores">
        <p>
          Emissores de NF-e registram, com certificado digital, o consentimento para compartilhar os dados
          das suas faturas com as instituições financeiras que escolherem.
        </p>
        <p>
          <Link to={ISSUER_LOGIN_PATH}>Acesso do emissor</Link>
        </p>
      </AudienceCard>
      <AudienceCard icon="pi-shield" title="Secretarias da Fazenda">
        <p>
          Administradores e gestores das Sefaz cuidam de clientes, usuários, faixas de cobrança, tarifas,
          rateio da receita entre os estados, cargas de documentos e erros de processamento.
        </p>
      </AudienceCard>
      <AudienceCard icon="pi-code" title="Integradores">
        <p>
          Os sistemas das instituições financeiras usam a API de integração, autenticados por certificado
          digital ICP-Brasil.
        </p>
        <p>
          <a href={API_DOCS_PATH}>Referência da API</a> · <a href={OPENAPI_PATH}>Documento OpenAPI 3.1</a>
        </p>
      </AudienceCard>
    </div>
  );
}
